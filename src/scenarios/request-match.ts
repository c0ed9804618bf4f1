import type { Request } from 'express';
import type { Condition, FaultMatch } from './types.js';

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

/** One glob segment: "*" inside a segment matches any run of characters within it. */
function segmentMatcher(glob: string): (segment: string) => boolean {
  if (glob === '*') return () => true;
  if (!glob.includes('*')) return (s) => s === glob;
  const source = glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*');
  const re = new RegExp(`^${source}$`);
  return (s) => re.test(s);
}

/** Path glob: "*" is one segment, "**" any number (zero included); empty segments are ignored. */
export function pathMatcher(glob: string): (path: string) => boolean {
  const parts = segmentsOf(glob).map((g) => (g === '**' ? '**' : segmentMatcher(g)));
  const matchFrom = (pi: number, segs: string[], si: number): boolean => {
    if (pi === parts.length) return si === segs.length;
    const part = parts[pi]!;
    if (part === '**') {
      for (let k = si; k <= segs.length; k++) if (matchFrom(pi + 1, segs, k)) return true;
      return false;
    }
    return si < segs.length && part(segs[si]!) && matchFrom(pi + 1, segs, si + 1);
  };
  return (path) => matchFrom(0, segmentsOf(path).map(safeDecode), 0);
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
    const [t, s] = actual.split(';')[0]!.trim().toLowerCase().split('/');
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
