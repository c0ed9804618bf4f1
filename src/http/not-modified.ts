import type { Response } from 'express';

/** An entity tag without its weak mark, for the weak comparison. */
export const stripWeak = (tag: string): string => (tag.startsWith('W/') ? tag.slice(2) : tag);

/**
 * If-None-Match / If-Modified-Since against the ETag and Last-Modified already set, as an origin server
 * evaluates them (RFC 9110 13.1.2, 13.1.3, 13.2.1). Unlike express's req.fresh, which is written for caches,
 * a request's `Cache-Control: no-cache` does not turn them off: fetch adds it to every conditional request.
 */
export function notModified(res: Response): boolean {
  const { method, headers } = res.req;
  if (method !== 'GET' && method !== 'HEAD') return false;
  const noneMatch = headers['if-none-match'];
  if (noneMatch !== undefined) {
    const etag = res.getHeader('ETag');
    if (typeof etag !== 'string') return false;
    return noneMatch.trim() === '*' || noneMatch.split(',').some((tag) => stripWeak(tag.trim()) === stripWeak(etag));
  }
  const modifiedSince = headers['if-modified-since'];
  const lastModified = res.getHeader('Last-Modified');
  if (modifiedSince === undefined || typeof lastModified !== 'string') return false;
  const since = Date.parse(modifiedSince);
  const modified = Date.parse(lastModified);
  return !Number.isNaN(since) && !Number.isNaN(modified) && modified <= since;
}
