/**
 * The recording format, version 2: JSON lines (a `.jsonl` file), so each exchange is appended and
 * writing one costs the same however long the recording is. The first line is the header, then one
 * exchange a line:
 *
 * {"format": "csp-mock-recording", "version": 2, "baseUrl": "{{baseUrl}}", "redacted": ["authorization", ...]}
 * {"id": 1, "user": "demo", "request": {...}, "response": {...}}
 * ...
 *
 *   baseUrl   the token that stands for the upstream's origin in links
 *   redacted  header and query names that were never written (besides the built-in secret names)
 *   created   ISO time the recording was made (recordings made before it was kept have none: their
 *             age is unknown, and `--max-age` refuses them)
 *   exchanges in the order they completed
 *
 * Version 1 (still read, and converted when appended to) was one JSON document with the header's
 * fields and an "exchanges" array.
 *
 * Exchange: { id, user?, session?, request: { method, path, query, headers, body? },
 *             response: { status, headers, body? } }
 *   user     the Basic login of the client (never its password); session: its X-Mock-Session header
 *   partialBody  true when the upstream answered before the request body was complete (an early
 *            refusal, e.g. 415 to an Expect: 100-continue upload): the body is not stored, and
 *            replay matches such a request whatever its body
 *   query    [name, value] pairs in the order sent
 *   headers  lower-case names; a value is a string or, when repeated, an array of strings
 *   body     absent when empty; { "text": "..." } for UTF-8 text, { "base64": "..." } for binary,
 *            { "file": "<id>-<side>.bin", "bytes": N, "sha256": "..." } above the sidecar
 *            threshold: a file in the recording's own folder `<name>.bodies/` (earlier recordings
 *            wrote "<name>.bodies/<id>-<side>.bin"; that leading segment is ignored when read)
 *
 * Normalised at record time: multipart boundaries become MULTIPART_BOUNDARY, the upstream's origin
 * in XML, uri-list bodies and Location/Content-Location headers becomes BASE_URL_TOKEN, and
 * framing and date headers (Content-Length, Transfer-Encoding, Date, ...) are not kept.
 */
import type { HeaderMap } from '../http/in-process-http.js';
export const RECORDING_FORMAT = 'csp-mock-recording';
export const RECORDING_VERSION = 2;
/** The whole-document format of earlier recordings, still read. */
export const RECORDING_VERSION_DOCUMENT = 1;
export const BASE_URL_TOKEN = '{{baseUrl}}';
export const MULTIPART_BOUNDARY = 'csp-mock-boundary';

export type { HeaderMap };

export type StoredBody = { text: string } | { base64: string } | { file: string; bytes: number; sha256: string };

export interface StoredRequest {
  method: string;
  path: string;
  query: Array<[string, string]>;
  headers: HeaderMap;
  body?: StoredBody;
  partialBody?: boolean;
}

export interface StoredResponse {
  status: number;
  headers: HeaderMap;
  body?: StoredBody;
}

export interface StoredExchange {
  id: number;
  user?: string;
  session?: string;
  request: StoredRequest;
  response: StoredResponse;
}

/** The first line of a recording. */
export interface RecordingHeader {
  format: typeof RECORDING_FORMAT;
  version: typeof RECORDING_VERSION | typeof RECORDING_VERSION_DOCUMENT;
  baseUrl: typeof BASE_URL_TOKEN;
  redacted: string[];
  /** ISO time the recording was made; absent in recordings made before it was kept. */
  created?: string;
}

/** A recording as stored: its header and exchanges, bodies not yet read from sidecars. */
export interface RecordingDocument extends RecordingHeader {
  exchanges: StoredExchange[];
}

/**
 * A body left on disk (a sidecar checked when the recording was read): its path, the folder it must
 * stay in, its size and sha256. Read or streamed when needed.
 */
export interface BodyFile {
  path: string;
  folder: string;
  bytes: number;
  sha256: string;
}

/**
 * An exchange with its bodies as bytes. With `bodyFile` set the body stays on disk and `body` is
 * empty (replay reads recordings so; readRecording's default reads sidecars in).
 */
export interface Exchange {
  id: number;
  user?: string;
  session?: string;
  request: Omit<StoredRequest, 'body'> & { body: Buffer; bodyFile?: BodyFile };
  response: Omit<StoredResponse, 'body'> & { body: Buffer; bodyFile?: BodyFile };
}

export interface Recording {
  /** The file it was read from, if any (sidecars resolve against it; proxy-on-miss appends to it). */
  file?: string;
  redacted: string[];
  /** ISO time the recording was made, when it says. */
  created?: string;
  exchanges: Exchange[];
}

/** The client an exchange belongs to: the X-Mock-Session value, else the login, else anonymous. */
export function clientOf(exchange: { user?: string; session?: string }): string {
  if (exchange.session) return `session:${exchange.session}`;
  if (exchange.user) return `user:${exchange.user}`;
  return 'anonymous';
}

export function headerValue(headers: HeaderMap, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}
