import { createHash } from 'node:crypto';
import { isSecretName } from '../http/secret-names.js';
import { REDACTED, redactBody } from '../http/redaction.js';
import { MULTIPART_BOUNDARY, headerValue, type HeaderMap } from './format.js';
import { mediaTypeOf } from '../http/media-type.js';
import { boundaryOf, carriesLinks, replaceBytes, toToken } from './normalise.js';

/** Request headers that change the answer, compared by default (configurable). */
export const DEFAULT_MATCH_HEADERS = [
  'range',
  'content-range',
  'content-location',
  'x-cloud-depth',
  'if-none-match',
  'depth',
  'destination',
  'overwrite',
];
/** Query parameters clients add against caches (e.g. ?n=<ticks>); the service ignores them, so does matching. */
export const DEFAULT_IGNORED_QUERY = ['n'];

export interface MatchOptions {
  headers: string[];
  ignoreQuery: string[];
  /** Redacted names: absent from the recording, so never compared. */
  redacted: string[];
}

/** What identifies a request for replay. */
export interface RequestKey {
  method: string;
  path: string;
  /** Sorted name=value pairs, joined with &. */
  query: string;
  mediaType: string;
  /** sha256 of the normalised body, '' when empty. */
  body: string;
  bodyBytes: number;
  headers: Record<string, string>;
}

export interface RequestParts {
  method: string;
  path: string;
  query: Array<[string, string]>;
  headers: HeaderMap;
  body: Buffer;
  /** A recorded body left on disk: its size and sha256 stand for it (it is stored normalised already). */
  bodyFile?: { bytes: number; sha256: string };
}

/**
 * The body as matching sees it: the multipart boundary replaced by the fixed one, the server's
 * origin in XML replaced by the base-URL token (origins: what the client may have written).
 */
export function normaliseRequestBody(
  body: Buffer,
  contentType: string | undefined,
  origins: readonly string[],
): Buffer {
  const boundary = boundaryOf(contentType);
  if (boundary) return replaceBytes(body, boundary, MULTIPART_BOUNDARY);
  if (carriesLinks(contentType) && origins.length > 0)
    return Buffer.from(toToken(body.toString('utf8'), origins), 'utf8');
  return body;
}

export function requestKey(parts: RequestParts, options: MatchOptions, origins: readonly string[] = []): RequestKey {
  const contentType = headerValue(parts.headers, 'content-type');
  // Redacted as the recording stored it, so a live request with the real secret finds its exchange.
  const body = redactBody(
    normaliseRequestBody(parts.body, contentType, origins),
    contentType,
    options.redacted,
    REDACTED,
  );
  const ignored = options.ignoreQuery.map((n) => n.toLowerCase());
  // Redacted names (and every secret-looking name) were never recorded, so they are never compared.
  const query = parts.query
    .filter(([name]) => !ignored.includes(name.toLowerCase()) && !isSecretName(name, options.redacted))
    .map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`)
    .sort()
    .join('&');
  const headers: Record<string, string> = {};
  for (const name of options.headers.map((h) => h.toLowerCase())) {
    if (isSecretName(name, options.redacted)) continue;
    const value = headerValue(parts.headers, name);
    if (value !== undefined) headers[name] = origins.length ? toToken(value, origins) : value;
  }
  return {
    method: parts.method.toUpperCase(),
    path: parts.path,
    query,
    mediaType: mediaTypeOf(contentType),
    ...(parts.bodyFile
      ? { body: parts.bodyFile.bytes ? parts.bodyFile.sha256 : '', bodyBytes: parts.bodyFile.bytes }
      : { body: body.length ? createHash('sha256').update(body).digest('hex') : '', bodyBytes: body.length }),
    headers,
  };
}

/** The key of a request recorded without its body (partialBody). */
export function withoutBody(k: RequestKey): RequestKey {
  return { ...k, body: '', bodyBytes: 0 };
}

export function keyString(k: RequestKey): string {
  const headers = Object.keys(k.headers)
    .sort()
    .map((h) => `${h}:${k.headers[h]}`)
    .join('\n');
  return [k.method, k.path, k.query, k.mediaType, k.body, headers].join('\n');
}

/** What differs between a request and a recorded one, in words; [] when they match. */
export function differences(got: RequestKey, recorded: RequestKey): string[] {
  const out: string[] = [];
  if (got.method !== recorded.method) out.push(`method ${got.method} (recorded ${recorded.method})`);
  if (got.path !== recorded.path) out.push(`path (recorded ${recorded.path})`);
  if (got.query !== recorded.query) out.push(`query "${got.query}" (recorded "${recorded.query}")`);
  if (got.mediaType !== recorded.mediaType)
    out.push(`content type "${got.mediaType}" (recorded "${recorded.mediaType}")`);
  if (got.body !== recorded.body)
    out.push(`body of ${got.bodyBytes} bytes differs (recorded ${recorded.bodyBytes} bytes)`);
  for (const name of new Set([...Object.keys(got.headers), ...Object.keys(recorded.headers)])) {
    const a = got.headers[name];
    const b = recorded.headers[name];
    if (a !== b)
      out.push(
        `header ${name}: ${a === undefined ? 'absent' : `"${a}"`} (recorded ${b === undefined ? 'absent' : `"${b}"`})`,
      );
  }
  return out;
}

/** How far apart two requests are, for ranking near misses: method and path weigh most. */
export function distance(got: RequestKey, recorded: RequestKey): number {
  let d = 0;
  if (got.method !== recorded.method) d += 8;
  if (got.path !== recorded.path) d += 4 + pathDistance(got.path, recorded.path);
  if (got.query !== recorded.query) d += 2;
  if (got.mediaType !== recorded.mediaType) d += 2;
  if (got.body !== recorded.body) d += 2;
  for (const name of new Set([...Object.keys(got.headers), ...Object.keys(recorded.headers)])) {
    if (got.headers[name] !== recorded.headers[name]) d += 1;
  }
  return d;
}

function pathDistance(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  let same = 0;
  while (same < x.length && same < y.length && x[same] === y[same]) same++;
  return x.length + y.length - 2 * same;
}

/** Request-side query pairs of a URL path ("/a?x=1&y" -> [["x","1"],["y",""]]). */
export function splitUrl(url: string): { path: string; query: Array<[string, string]> } {
  const q = url.indexOf('?');
  if (q < 0) return { path: url, query: [] };
  return { path: url.slice(0, q), query: [...new URLSearchParams(url.slice(q + 1))] };
}
