import { STATUS_CODES } from 'node:http';

/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the parts csp-mock reads and writes.
 * Fields starting with "_" are custom, as the spec allows: `_user` (the Basic login of an exported
 * exchange, never its password), `_session` (its X-Mock-Session), `_error` (how an unanswered request
 * ended) and `_encoding` on postData (base64 for a binary request body, which HAR 1.2 has no field for).
 */
export interface HarNameValue {
  name: string;
  value: string;
}

export interface HarPostData {
  mimeType: string;
  text?: string;
  params?: Array<{ name: string; value?: string }>;
  /** Ours: "base64" when `text` holds a binary body in base64. */
  _encoding?: string;
  /** Some tools write it so. */
  encoding?: string;
  comment?: string;
}

export interface HarRequest {
  method: string;
  url: string;
  httpVersion: string;
  cookies: HarNameValue[];
  headers: HarNameValue[];
  queryString: HarNameValue[];
  postData?: HarPostData;
  headersSize: number;
  bodySize: number;
}

export interface HarContent {
  size: number;
  mimeType: string;
  text?: string;
  encoding?: string;
  comment?: string;
}

export interface HarResponse {
  status: number;
  statusText: string;
  httpVersion: string;
  cookies: HarNameValue[];
  headers: HarNameValue[];
  content: HarContent;
  redirectURL: string;
  headersSize: number;
  bodySize: number;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: HarRequest;
  response: HarResponse;
  cache: Record<string, unknown>;
  timings: { send: number; wait: number; receive: number; [phase: string]: number };
  comment?: string;
  _user?: string;
  _session?: string;
  _error?: string;
  /** Browsers mark answers served from their cache so ("memory", "disk"): the server never saw them. */
  _fromCache?: string;
}

export interface Har {
  log: {
    version: string;
    creator: { name: string; version: string };
    pages?: unknown[];
    entries: HarEntry[];
    comment?: string;
  };
}

/** A HAR's header list from a header map (repeated names as repeated entries). */
export function harHeaders(headers: Record<string, string | string[]>): HarNameValue[] {
  return Object.entries(headers).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((v) => ({ name, value: v })),
  );
}

/** What every entry we write shares: HTTP/1.1, no cookies parsed, no header sizes. */
type Fixed = 'httpVersion' | 'cookies' | 'headersSize';

/** An entry of `request` and `response` (its body size its content's) started at `started`, then `extra` (comment, _user...). */
export function harEntry(
  started: string,
  time: number,
  request: Omit<HarRequest, Fixed>,
  response: Omit<HarResponse, Fixed | 'bodySize'>,
  extra: Partial<HarEntry>,
): HarEntry {
  const fixed = { httpVersion: 'HTTP/1.1', cookies: [], headersSize: -1 };
  return {
    startedDateTime: started,
    time,
    request: { ...fixed, ...request },
    response: { ...fixed, ...response, bodySize: response.content.size },
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
    ...extra,
  };
}

/** A HAR 1.2 log of `entries`; its creator names our recording format (the package's version is not known here). */
export const harLog = (entries: HarEntry[], comment?: string): Har => ({
  log: {
    version: '1.2',
    creator: { name: 'csp-mock', version: 'recording format 2' },
    entries,
    ...(comment !== undefined && { comment }),
  },
});

/** The reason phrase HAR's statusText wants: Node's table, '' for a status it does not know. */
export const statusText = (status: number): string => STATUS_CODES[status] ?? '';
