import { Readable } from 'node:stream';
import type { OpenResponse, PlainRequest } from '../http/in-process-http.js';

/** Framing of the in-process connection; the interceptor frames its own answer to the client. */
const FRAMING = new Set(['transfer-encoding', 'connection', 'keep-alive']);
/** Statuses whose answer has no body (the Response constructor refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

/** The exact request a client sent, as the interceptor handed it over: method, path below `prefix`, headers, bytes. */
export async function plainRequestOf(request: Request, prefix: string): Promise<PlainRequest> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return {
    method: request.method,
    url: `${url.pathname.slice(prefix.length) || '/'}${url.search}`,
    headers,
    body: Buffer.from(await request.arrayBuffer()),
  };
}

/**
 * The app's answer as a fetch Response (what the interceptor answers the client with), its body
 * streaming: an answer cut short reaches the client as a body that fails, as on a socket.
 */
export function responseOf(answer: OpenResponse, method: string): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (FRAMING.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  if (method === 'HEAD' || NO_BODY.has(answer.status)) {
    answer.body.resume();
    return new Response(null, { status: answer.status, headers });
  }
  return new Response(Readable.toWeb(answer.body) as ReadableStream<Uint8Array>, { status: answer.status, headers });
}
