import type { Request } from 'express';
import type { Condition, FaultMatch } from './types.js';
import { mediaTypeOf } from '../http/media-type.js';
import { pathMatcher } from '../http/path-glob.js';

export type RequestPredicate = (req: Request) => boolean;

function conditionHolds(condition: Condition, value: string | undefined): boolean {
  if (typeof condition === 'boolean') return condition === (value !== undefined);
  return value === condition;
}

function firstValue(value: unknown): string | undefined {
  if (Array.isArray(value)) return firstValue(value[0]);
  return typeof value === 'string' ? value : undefined;
}

/** "multipart/form-data", "text/*" or "*\/*" against the request's media type (parameters ignored). */
function mediaTypeMatcher(wanted: string): (actual: string | undefined) => boolean {
  const [type, subtype] = wanted.toLowerCase().split('/');
  return (actual) => {
    if (!actual) return false;
    const [t, s] = mediaTypeOf(actual).split('/');
    return (type === '*' || type === t) && (subtype === undefined || subtype === '*' || subtype === s);
  };
}

/** Compiles a rule's match into one predicate over the request. */
export function compileMatch(match: FaultMatch): RequestPredicate {
  const methods = (Array.isArray(match.method) ? match.method : [match.method]).map((m) => m.toUpperCase());
  const anyMethod = methods.includes('*');
  const path = pathMatcher(match.path);
  const headers = Object.entries(match.headers ?? {}).map(([name, c]) => [name.toLowerCase(), c] as const);
  const query = Object.entries(match.query ?? {});
  const contentType = match.contentType === undefined ? undefined : mediaTypeMatcher(match.contentType);
  return (req) =>
    (anyMethod || methods.includes(req.method)) &&
    path(req.path) &&
    headers.every(([name, c]) => conditionHolds(c, firstValue(req.headers[name]))) &&
    query.every(([name, c]) => conditionHolds(c, firstValue(req.query[name]))) &&
    (contentType === undefined || contentType(req.headers['content-type']));
}
