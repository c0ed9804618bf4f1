import { createServer, type RequestListener, type Server } from 'node:http';
import { Duplex } from 'node:stream';
import type { PlainRequest, PlainResponse } from './plain-exchange.js';
import { ResponseReader } from './response-reader.js';

export type { HeaderMap, PlainRequest, PlainResponse } from './plain-exchange.js';

/** Two connected in-memory streams: what one writes, the other reads. */
function duplexPair(): [Duplex, Duplex] {
  const sides: Duplex[] = [];
  const make = (other: () => Duplex): Duplex =>
    new Duplex({
      read() {},
      write(chunk: Buffer, _enc, done) {
        other().push(chunk);
        done();
      },
      final(done) {
        other().push(null);
        done();
      },
      // A side that goes away ends the other's input, as a closed socket would.
      destroy(err, done) {
        if (!other().readableEnded) other().push(null);
        done(err);
      },
    });
  sides.push(
    make(() => sides[1]!),
    make(() => sides[0]!),
  );
  return [sides[0]!, sides[1]!];
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

  dispatch(request: PlainRequest): Promise<PlainResponse> {
    const [client, server] = duplexPair();
    this.#server.emit('connection', server);
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
    const reader = new ResponseReader(request.method);
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (read: () => PlainResponse | undefined): void => {
        if (settled) return;
        try {
          const answer = read();
          if (!answer) return;
          settled = true;
          resolve(answer);
        } catch (err) {
          settled = true;
          reject(err as Error);
        }
        client.destroy();
        server.destroy();
      };
      client.on('data', (c: Buffer) => settle(() => reader.push(c)));
      client.on('error', reject);
      client.on('end', () => settle(() => reader.end()));
      client.write(Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), request.body]));
    });
  }
}
