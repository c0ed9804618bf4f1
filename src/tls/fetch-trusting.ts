import { request } from 'node:https';
import { rootCertificates } from 'node:tls';

export interface SimpleRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * A fetch for https URLs that trusts `ca` besides Node's own roots (fetch itself takes no CA without an
 * undici dispatcher, which Node does not expose). It answers with a standard Response, and fails as fetch
 * does: a TypeError "fetch failed" whose cause is the socket's error.
 */
export function fetchTrusting(
  ca: string | Buffer | ReadonlyArray<string | Buffer>,
): (url: string, init: SimpleRequest) => Promise<Response> {
  const trusted = [...rootCertificates, ...(Array.isArray(ca) ? ca : [ca])] as Array<string | Buffer>;
  return (url, init) =>
    new Promise((resolve, reject) => {
      const req = request(url, { method: init.method, headers: init.headers, ca: trusted }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (err) => reject(new TypeError('fetch failed', { cause: err })));
        res.on('end', () => {
          const status = res.statusCode ?? 502;
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value === undefined) continue;
            for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
          }
          const empty = [101, 204, 205, 304].includes(status) || init.method === 'HEAD';
          resolve(
            new Response(empty ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage, headers }),
          );
        });
      });
      req.on('error', (err) => reject(new TypeError('fetch failed', { cause: err })));
      req.end(init.body);
    });
}
