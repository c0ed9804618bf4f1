import type { PlainRequest, PlainResponse } from '../http/in-process-http.js';

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

/** The app's answer as a fetch Response (what the interceptor answers the client with). */
export function responseOf(answer: PlainResponse, method: string): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (FRAMING.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const body = method === 'HEAD' || NO_BODY.has(answer.status) ? null : new Uint8Array(answer.body);
  return new Response(body, { status: answer.status, headers });
}
