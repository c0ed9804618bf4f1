import type { IncomingMessage } from 'node:http';

/** An entity tag without its weak mark, for the weak comparison. */
export const stripWeak = (tag: string): string => (tag.startsWith('W/') ? tag.slice(2) : tag);

/**
 * If-None-Match / If-Modified-Since against the answer's ETag and Last-Modified, as an origin server
 * evaluates them (RFC 9110 13.1.2, 13.1.3, 13.2.1). Unlike express's req.fresh, which is written for caches,
 * a request's `Cache-Control: no-cache` does not turn them off: fetch adds it to every conditional request.
 */
export function notModified(req: IncomingMessage, etag: unknown, lastModified: unknown): boolean {
  const { method, headers } = req;
  if (method !== 'GET' && method !== 'HEAD') return false;
  const noneMatch = headers['if-none-match'];
  if (noneMatch !== undefined) {
    if (typeof etag !== 'string') return false;
    return noneMatch.trim() === '*' || noneMatch.split(',').some((tag) => stripWeak(tag.trim()) === stripWeak(etag));
  }
  const modifiedSince = headers['if-modified-since'];
  if (modifiedSince === undefined || typeof lastModified !== 'string') return false;
  const since = Date.parse(modifiedSince);
  const modified = Date.parse(lastModified);
  return !Number.isNaN(since) && !Number.isNaN(modified) && modified <= since;
}
