import type { Request } from 'express';
import type { Condition, FaultMatch } from './types.js';
import { mediaTypeOf } from '../http/media-type.js';

export type RequestPredicate = (req: Request) => boolean;

function segmentsOf(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The classic two-pointer wildcard match: on a mismatch it backs up only to the last star, so it
 * costs O(items x pattern) at worst, never exponential time, whatever the pattern (rules run before
 * authentication, so anyone can make them run).
 */
function wildcardMatch<T, P>(
  pattern: readonly P[],
  items: readonly T[],
  isStar: (p: P) => boolean,
  same: (p: P, item: T) => boolean,
): boolean {
  let pi = 0;
  let ii = 0;
  let star = -1;
  let resume = 0;
  while (ii < items.length) {
    if (pi < pattern.length && !isStar(pattern[pi]!) && same(pattern[pi]!, items[ii]!)) {
      pi++;
      ii++;
    } else if (pi < pattern.length && isStar(pattern[pi]!)) {
      star = pi++;
      resume = ii;
    } else if (star >= 0) {
      pi = star + 1;
      ii = ++resume;
    } else {
      return false;
    }
  }
  while (pi < pattern.length && isStar(pattern[pi]!)) pi++;
  return pi === pattern.length;
}

/** One glob segment: "*" inside a segment matches any run of characters within it. */
function segmentMatcher(glob: string): (segment: string) => boolean {
  if (glob === '*') return () => true;
  if (!glob.includes('*')) return (s) => s === glob;
  const chars = [...glob];
  return (s) =>
    wildcardMatch(
      chars,
      [...s],
      (c) => c === '*',
      (c, x) => c === x,
    );
}

type PathPart = '**' | ((segment: string) => boolean);

/** Path glob: "*" is one segment, "**" any number (zero included); empty segments are ignored. */
export function pathMatcher(glob: string): (path: string) => boolean {
  const parts: PathPart[] = segmentsOf(glob).map((g) => (g === '**' ? '**' : segmentMatcher(g)));
  return (path) =>
    wildcardMatch(
      parts,
      segmentsOf(path).map(safeDecode),
      (p) => p === '**',
      (p, segment) => p !== '**' && p(segment),
    );
}

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
