import type { Request } from 'express';
import { badRequest, type HttpError } from './errors.js';

/** X-Client-Specification: 2 is expected; others are served with a warning, or refused (the 400 returned) with --strict. */
export function refusedSpecification(
  req: Request,
  strict: boolean,
  log: (line: string) => void,
): HttpError | undefined {
  const spec = req.headers['x-client-specification'];
  if (spec === '2') return undefined;
  const what = spec === undefined ? 'no X-Client-Specification header' : `X-Client-Specification "${String(spec)}"`;
  if (strict) return badRequest(`${what}; this service speaks specification 2`);
  log(`warning: ${req.method} ${req.originalUrl.split('?')[0]} sent ${what} (served; --strict refuses it)`);
  return undefined;
}
