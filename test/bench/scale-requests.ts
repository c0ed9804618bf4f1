import { Agent, request } from 'node:http';
import type { ScaleRequest as BenchRequest } from './scale-load.js';
import { AUTH } from './scale-server.js';

/** WebDAV requests of the scale benchmark, all as user demo. */
export const dav = {
  mkcol: (path: string): BenchRequest => ({ method: 'MKCOL', path: `/dav/${path}`, headers: AUTH, expect: 201 }),
  put: (path: string, body = Buffer.alloc(0)): BenchRequest => ({
    method: 'PUT',
    path: `/dav/${path}`,
    headers: AUTH,
    body,
    expect: 201,
  }),
  lock: (path: string): BenchRequest => ({
    method: 'LOCK',
    path: `/dav/${path}`,
    headers: { ...AUTH, 'Content-Type': 'application/xml', Timeout: 'Second-3600' },
    body: Buffer.from(
      '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>bench</D:owner></D:lockinfo>',
    ),
    expect: 201,
  }),
  copy: (base: string, from: string, to: string): BenchRequest => ({
    method: 'COPY',
    path: `/dav/${from}`,
    headers: { ...AUTH, Destination: `${base}/dav/${to}`, Depth: 'infinity' },
    expect: 201,
  }),
  entry: (): BenchRequest => ({ method: 'GET', path: '/v2', headers: AUTH, expect: 200 }),
};

/** One request on its own connection; resolves with its time in ms. Throws on another status. */
export function timed(base: string, spec: BenchRequest, timeoutMs = 600_000): Promise<number> {
  const agent = new Agent({ keepAlive: false });
  const t0 = process.hrtime.bigint();
  return new Promise<number>((resolve, reject) => {
    const headers = { ...spec.headers, 'Content-Length': String(spec.body?.length ?? 0) };
    const req = request(`${base}${spec.path}`, { method: spec.method, headers, agent, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode !== spec.expect)
          reject(new Error(`${spec.method} ${spec.path}: expected ${spec.expect}, got ${res.statusCode}`));
        else resolve(Number(process.hrtime.bigint() - t0) / 1e6);
      });
    });
    req.on('timeout', () => req.destroy(new Error(`${spec.method} ${spec.path}: no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(spec.body);
  }).finally(() => agent.destroy());
}
