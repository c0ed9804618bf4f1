import { Transform, type TransformCallback } from 'node:stream';
import { mediaTypeOf } from '../http/media-type.js';
import { BASE_URL_TOKEN, MULTIPART_BOUNDARY, type HeaderMap } from './format.js';

/** Headers that belong to one connection (RFC 9110 section 7.6.1), and Host: never forwarded as they came. */
export const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
];
/** Those and per-message framing: recomputed by whoever sends the message, never stored or replayed. */
const FRAMING = [...HOP_BY_HOP, 'content-length', 'expect'];
/** Headers that only say when a message was sent; a replay sends its own. */
const DATES = ['date'];
/** Ours: picks the replay client, not part of the request. */
export const SESSION_HEADER = 'x-mock-session';

/** The boundary parameter of a multipart Content-Type, if any. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  const match = /^\s*multipart\/[^;]+;(?:.*;)?\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2]) : undefined;
}

/** Bodies whose absolute links name the server: XML entities and the uri-list of a create. */
export function carriesLinks(contentType: string | undefined): boolean {
  const type = mediaTypeOf(contentType);
  return type.endsWith('+xml') || type === 'application/xml' || type === 'text/xml' || type === 'text/uri-list';
}

/** Every occurrence of each origin becomes `to` (origins without a trailing slash). */
export function replaceOrigins(text: string, origins: readonly string[], to: string): string {
  let out = text;
  for (const origin of origins) if (origin) out = out.split(origin).join(to);
  return out;
}

export const toToken = (text: string, origins: readonly string[]): string =>
  replaceOrigins(text, origins, BASE_URL_TOKEN);
export const fromToken = (text: string, origin: string): string => text.split(BASE_URL_TOKEN).join(origin);

/**
 * Node's header object to ours: lower-case names, framing, hop-by-hop (proxy-* too), dates and the
 * session header dropped, whatever their spelling. Replay sends only what this keeps, so a recording
 * cannot frame an answer (a Content-Length or Transfer-Encoding of its own would split it).
 */
export function keptHeaders(
  headers: Record<string, string | string[] | number | undefined>,
  keepConnectionClose = false,
): HeaderMap {
  const out: HeaderMap = {};
  for (const [raw, value] of Object.entries(headers)) {
    const name = raw.toLowerCase();
    if (value === undefined || DATES.includes(name) || name === SESSION_HEADER) continue;
    if (FRAMING.includes(name) || name.startsWith('proxy-')) {
      // The observed 500s close the connection; that is behaviour worth replaying.
      if (name === 'connection' && keepConnectionClose && /close/i.test(String(value))) out[name] = 'close';
      continue;
    }
    out[name] = Array.isArray(value) ? value.map(String) : String(value);
  }
  return out;
}

/** Every value of a header map (each of a repeated header's) through `map`. */
export const mapHeaderValues = (headers: HeaderMap, map: (value: string, name: string) => string): HeaderMap =>
  Object.fromEntries(
    Object.entries(headers).map(([name, v]) => [name, Array.isArray(v) ? v.map((x) => map(x, name)) : map(v, name)]),
  );

/** Header values with the base-URL token turned into `origin`, as replay sends them. */
export const headersFromToken = (headers: HeaderMap, origin: string): HeaderMap =>
  mapHeaderValues(headers, (v) => fromToken(v, origin));

/** Headers to store: the boundary and the upstream origin replaced by their stable tokens. */
export function normaliseHeaders(headers: HeaderMap, origins: readonly string[]): HeaderMap {
  return mapHeaderValues(headers, (v, name) => {
    const s = name === 'content-type' ? normaliseBoundaryParam(v) : v;
    // Absolute addresses in headers (WebDAV Destination too) carry the upstream origin.
    return name === 'location' || name === 'content-location' || name === 'destination' ? toToken(s, origins) : s;
  });
}

function normaliseBoundaryParam(contentType: string): string {
  const boundary = boundaryOf(contentType);
  return boundary ? contentType.replace(boundary, MULTIPART_BOUNDARY) : contentType;
}

/**
 * Replaces every occurrence of `from` by `to` in a byte stream, also across chunk edges
 * (it holds back the last from.length-1 bytes until it knows they do not start a match).
 */
export class ByteReplacer extends Transform {
  readonly #from: Buffer;
  readonly #to: Buffer;
  #tail = Buffer.alloc(0);

  constructor(from: string, to: string) {
    super();
    this.#from = Buffer.from(from, 'latin1');
    this.#to = Buffer.from(to, 'latin1');
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    let data = Buffer.concat([this.#tail, chunk]);
    const parts: Buffer[] = [];
    let at = data.indexOf(this.#from);
    while (at >= 0) {
      parts.push(data.subarray(0, at), this.#to);
      data = data.subarray(at + this.#from.length);
      at = data.indexOf(this.#from);
    }
    const keep = Math.min(data.length, this.#from.length - 1);
    parts.push(data.subarray(0, data.length - keep));
    this.#tail = Buffer.from(data.subarray(data.length - keep));
    done(null, Buffer.concat(parts));
  }

  override _flush(done: TransformCallback): void {
    done(null, this.#tail);
  }
}

/** A whole-buffer version of ByteReplacer, for bodies already in memory (latin1 maps each byte to one character). */
export function replaceBytes(body: Buffer, from: string, to: string): Buffer {
  const text = body.toString('latin1');
  return text.includes(from) ? Buffer.from(text.split(from).join(to), 'latin1') : body;
}
