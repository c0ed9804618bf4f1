import { createServer, type RequestListener, type Server } from 'node:http';
import { Duplex } from 'node:stream';

/** Header name (lower case) to value; a repeated header keeps its values in order. */
export type HeaderMap = Record<string, string | string[]>;

export interface PlainRequest {
  method: string;
  /** Path and query, e.g. /v2/files/abc?n=1 */
  url: string;
  headers: HeaderMap;
  body: Buffer;
}

export interface PlainResponse {
  status: number;
  headers: HeaderMap;
  body: Buffer;
}

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
    const chunks: Buffer[] = [];
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (complete: boolean): void => {
        if (settled) return;
        try {
          const answer = parseResponse(Buffer.concat(chunks), request.method, complete);
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
      client.on('data', (c: Buffer) => {
        chunks.push(c);
        settle(false);
      });
      client.on('error', reject);
      client.on('end', () => settle(true));
      client.write(Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), request.body]));
    });
  }
}

/**
 * Parses the bytes of one HTTP/1.1 response (skipping 1xx), body by chunked, length or close;
 * undefined while incomplete (`ended`: the connection closed, so what is there is all there is).
 */
export function parseResponse(raw: Buffer, method: string, ended: boolean): PlainResponse | undefined {
  let rest = raw;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) {
      if (ended) throw new Error('in-process response ended before its headers');
      return undefined;
    }
    const head = rest.subarray(0, end).toString('latin1').split('\r\n');
    rest = rest.subarray(end + 4);
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? '')?.[1]);
    if (!Number.isInteger(status)) throw new Error(`in-process response has no status line: ${head[0] ?? ''}`);
    if (status >= 100 && status < 200) continue;
    const headers: HeaderMap = {};
    for (const line of head.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      const prev = headers[name];
      headers[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
    }
    if (method === 'HEAD' || status === 204 || status === 304) return { status, headers, body: Buffer.alloc(0) };
    if (/chunked/i.test(String(headers['transfer-encoding'] ?? ''))) {
      const body = dechunk(rest);
      return body || ended ? { status, headers, body: body ?? Buffer.alloc(0) } : undefined;
    }
    const length = headers['content-length'];
    if (length === undefined) return ended ? { status, headers, body: rest } : undefined;
    if (rest.length < Number(length)) {
      if (ended) throw new Error('in-process response ended before its body');
      return undefined;
    }
    return { status, headers, body: rest.subarray(0, Number(length)) };
  }
}

/** The decoded chunked body, or undefined until its last (zero) chunk has arrived. */
function dechunk(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf('\r\n', at);
    if (eol < 0) return undefined;
    const size = Number.parseInt(data.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size)) throw new Error('in-process response has a malformed chunk');
    if (size === 0) return Buffer.concat(parts);
    if (data.length < eol + 2 + size + 2) return undefined;
    parts.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}
