import type { Request } from 'express';
import { badRequest } from '../http/errors.js';

/**
 * The fields a CDMI request names after "?" (CDMI 1.0.x: separated by ";"; "&" is read the same, and
 * a parameter of the client's own, such as a cache buster, is ignored by the readers of this list).
 */
export function cdmiFieldsOf(req: Request): string[] {
  const at = req.originalUrl.indexOf('?');
  if (at === -1) return [];
  return req.originalUrl
    .slice(at + 1)
    .split(/[;&]/)
    .filter((f) => f !== '')
    .map((f) => {
      let field: string;
      try {
        field = decodeURIComponent(f);
      } catch {
        throw badRequest(`bad percent-encoding in the query field "${f}"`);
      }
      // "queueValues=" is "queueValues": a client (and verify, which rebuilds queries as k=v) may add the "=".
      return field.endsWith('=') ? field.slice(0, -1) : field;
    });
}

/** The n of a "values:n" field, or undefined when the request names none; a malformed n is 400. */
export function valuesCountOf(fields: readonly string[]): number | undefined {
  const field = fields.find((f) => f.startsWith('values:') || f === 'value');
  if (field === undefined) return undefined;
  if (field === 'value') return 1;
  const raw = field.slice('values:'.length);
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n)) throw badRequest(`"${field}": values:<n> takes a whole number n`);
  return n;
}
