import { createServer, type RequestListener, type Server } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import { InProcessSocket, connectionError } from './in-process-socket.js';
import type { PlainRequest, PlainResponse } from './plain-exchange.js';
import { ResponseReader } from './response-reader.js';

export type { HeaderMap, PlainRequest, PlainResponse } from './plain-exchange.js';

/** An answer whose body is still arriving: it errors (ECONNRESET "aborted") if the connection ends early. */
export interface OpenResponse extends Omit<PlainResponse, 'body'> {
  body: Readable;
}

/**
 * Runs a Node request listener (an express app) on real HTTP/1.1 bytes over an in-memory
 * connection: Node's own parser reads the request, so the app sees exactly what a socket would
 * give it, and no port is opened.
 */
export class InProcessHttp {
  readonly #server: Server;

  constructor(handler: RequestListener) {
    this.#server = createServer(handler);
  }

  /** The whole answer to `request`; a dropped connection rejects as it would on a socket, and `signal` gives up. */
  async dispatch(request: PlainRequest, signal?: AbortSignal): Promise<PlainResponse> {
    const open = await this.open(request, signal);
    const parts: Buffer[] = [];
    for await (const part of open.body) parts.push(part as Buffer);
    return { status: open.status, headers: open.headers, body: Buffer.concat(parts) };
  }

  /**
   * The answer to `request` as soon as its head has arrived, its body streaming, as a client on a
   * socket sees it: a connection dropped before the head rejects ("socket hang up", or ECONNRESET for
   * a reset), one dropped during the body errors the body. Aborting `signal` closes the connection.
   */
  open(request: PlainRequest, signal?: AbortSignal): Promise<OpenResponse> {
    const [client, server] = InProcessSocket.pair();
    this.#server.emit('connection', server);
    const body = new PassThrough();
    const reader = new ResponseReader(request.method, (chunk) => body.write(chunk));
    return new Promise((resolve, reject) => {
      let headed = false;
      let ended = false;
      const close = (): void => {
        client.destroy();
        server.destroy();
      };
      const fail = (err: Error): void => {
        if (ended) return;
        ended = true;
        if (headed) body.destroy(err);
        else reject(err);
        close();
      };
      const step = (read: () => PlainResponse | undefined): void => {
        if (ended) return;
        let done: PlainResponse | undefined;
        try {
          done = read();
        } catch (err) {
          return fail(err as Error);
        }
        const head = reader.head;
        if (head && !headed) {
          headed = true;
          resolve({ ...head, body });
        }
        if (!done) return;
        ended = true;
        body.end();
        close();
      };
      client.on('data', (c: Buffer) => step(() => reader.push(c)));
      client.on('error', fail);
      client.on('end', () => step(() => reader.end()));
      // A client that gives up closes its connection: the app sees it go, as on a socket.
      const giveUp = (): void => fail(signal?.reason instanceof Error ? signal.reason : connectionError('aborted'));
      if (signal?.aborted) return giveUp();
      signal?.addEventListener('abort', giveUp, { once: true });
      client.once('close', () => signal?.removeEventListener('abort', giveUp));
      body.once('close', () => {
        // A reader that stops reading the body (cancels it) closes the connection too.
        if (!ended) fail(connectionError('aborted'));
      });
      client.write(requestBytes(request));
    });
  }
}

/** The request as HTTP/1.1 bytes, framed by Content-Length. */
function requestBytes(request: PlainRequest): Buffer {
  const lines = [`${request.method} ${request.url} HTTP/1.1`];
  let hasHost = false;
  for (const [name, value] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    if (['content-length', 'transfer-encoding', 'connection', 'expect'].includes(lower)) continue;
    if (lower === 'host') hasHost = true;
    for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${v.replace(/[\r\n]/g, ' ')}`);
  }
  if (!hasHost) lines.push('Host: in-process.invalid');
  // Keep-alive, so a Connection: close in the answer is the app's own choice (as in the observed 500s).
  lines.push(`Content-Length: ${request.body.length}`, '', '');
  return Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), request.body]);
}
