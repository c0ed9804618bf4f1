import type { RequestHandler, Response } from 'express';
import { badRequest } from './errors.js';

/** X-Client-Specification: 2 is expected; others are served with a warning, or refused with --strict. */
export function clientSpecification(
  settingsOf: (res: Response) => { rules: { strict: boolean }; log: (line: string) => void },
): RequestHandler {
  return (req, res, next) => {
    const spec = req.headers['x-client-specification'];
    if (spec === '2') return next();
    const { rules, log: warn } = settingsOf(res);
    const strict = rules.strict;
    const what = spec === undefined ? 'no X-Client-Specification header' : `X-Client-Specification "${String(spec)}"`;
    if (strict) return next(badRequest(`${what}; this service speaks specification 2`));
    warn(`warning: ${req.method} ${req.originalUrl.split('?')[0]} sent ${what} (served; --strict refuses it)`);
    next();
  };
}
