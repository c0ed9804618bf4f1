import { request, type IncomingHttpHeaders } from 'node:http';

export interface ClientRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Send Expect: 100-continue and hold the body until the server says 100. */
  expectContinue?: boolean;
  /** Send the body in this many chunks with Transfer-Encoding: chunked (no Content-Length). */
  chunks?: number;
}

export interface ClientResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Whether a 100 Continue arrived before the answer. */
  continued: boolean;
}

/** A bare HTTP/1.1 client (node:http) that can do what real clients do: 100-continue and chunked uploads. */
export function send(baseUrl: string, r: ClientRequest): Promise<ClientResponse> {
  const url = new URL(r.path, baseUrl);
  const body = r.body === undefined ? Buffer.alloc(0) : Buffer.from(r.body);
  const headers: Record<string, string> = { ...r.headers };
  if (r.expectContinue) headers['Expect'] = '100-continue';
  if (!r.chunks && (body.length > 0 || ['POST', 'PUT'].includes(r.method)))
    headers['Content-Length'] = String(body.length);
  return new Promise((resolve, reject) => {
    let continued = false;
    const req = request({
      method: r.method,
      host: url.hostname,
      port: url.port,
      path: `${url.pathname}${url.search}`,
      headers,
      agent: false,
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('error', reject);
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts), continued }),
      );
    });
    const writeBody = (): void => {
      if (r.chunks && r.chunks > 1) {
        const size = Math.ceil(body.length / r.chunks);
        for (let at = 0; at < body.length; at += size) req.write(body.subarray(at, at + size));
        req.end();
      } else req.end(body);
    };
    if (r.expectContinue) {
      req.on('continue', () => {
        continued = true;
        writeBody();
      });
      req.flushHeaders();
    } else writeBody();
  });
}

/** Deterministic bytes covering every byte value (so "binary" really is binary). */
export function binaryBytes(length: number, seed = 7): Buffer {
  const out = Buffer.alloc(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out[i] = i < 256 ? i : x & 0xff;
  }
  return out;
}

/** A multipart/form-data body with one file part, as browsers and SDKs send it. */
export function multipartBody(
  field: string,
  filename: string,
  type: string,
  content: Buffer,
  boundary: string,
): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}
