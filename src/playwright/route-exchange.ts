import type { Request as PageRequest } from '@playwright/test';
import type { PlainRequest, PlainResponse } from '../http/in-process-http.js';

/** What route.fulfill is given: one string per header name, as Playwright takes them. */
export interface RouteAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Framing of the in-process connection: Playwright frames the answer it hands the browser itself. */
const FRAMING = new Set(['transfer-encoding', 'connection', 'keep-alive']);

/**
 * The request the page sent, as the mock's app reads it: method, path below `prefix` and query, every header
 * the browser sent (cookies too), the body's exact bytes, and the Host the page addressed.
 */
export async function plainRequestOfRoute(request: PageRequest, prefix: string): Promise<PlainRequest> {
  const url = new URL(request.url());
  const headers: Record<string, string> = {};
  // HTTP/2 pseudo-headers (":authority") are not HTTP/1.1 header lines.
  for (const [name, value] of Object.entries(await request.allHeaders()))
    if (!name.startsWith(':')) headers[name] = value;
  headers['host'] = url.host;
  return {
    method: request.method(),
    url: `${url.pathname.slice(prefix.length) || '/'}${url.search}`,
    headers,
    body: request.postDataBuffer() ?? Buffer.alloc(0),
  };
}

/**
 * The app's answer as route.fulfill takes it. A repeated header becomes one value (Set-Cookie joined by
 * newlines, which Playwright splits again; any other by commas, as HTTP allows). CORS headers are the mock's
 * own, so a scenario that drops them is seen by the page as on the wire.
 */
export function routeAnswerOf(answer: PlainResponse): RouteAnswer {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers)) {
    if (FRAMING.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(name === 'set-cookie' ? '\n' : ', ') : value;
  }
  return { status: answer.status, headers, body: answer.body };
}
