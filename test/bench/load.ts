import { Agent, request } from 'node:http';
import { uploadBody } from './scenarios.js';

/** One request of a scenario: method, path, headers; an upload gets a fresh multipart body each time. */
export interface BenchRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** A multipart body with a file name unique in the run. */
  uploadName?: boolean;
  /** The status that counts as success. */
  expect: number;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  bytesPerSecond: number;
  /** Which generator measured it: wrk, or the built-in node client. */
  generator: 'wrk' | 'node';
}

/**
 * The built-in generator (used when wrk is absent, and by the quick test): `connections` keep-alive
 * loopback lanes send `spec` until `seconds` are over; an unexpected status aborts the run.
 */
export async function runNodeLoad(
  base: string,
  spec: BenchRequest,
  seconds: number,
  connections: number,
  namePrefix: string,
): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  let done = 0;
  let bytesIn = 0;
  let issued = 0;
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(Math.round(seconds * 1e9));
  const lane = async (): Promise<void> => {
    while (process.hrtime.bigint() < deadline) {
      const body = spec.uploadName ? uploadBody(`${namePrefix}${issued++}.txt`) : undefined;
      bytesIn += await send(agent, base, spec, body);
      done++;
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, lane));
  } finally {
    agent.destroy();
  }
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    requests: done,
    seconds: elapsed,
    perSecond: done / elapsed,
    bytesPerSecond: bytesIn / elapsed,
    generator: 'node',
  };
}

/** One request on a keep-alive agent; resolves with the answer's byte count, rejects on an unexpected status. */
export function send(
  agent: Agent,
  base: string,
  spec: Pick<BenchRequest, 'method' | 'path' | 'headers' | 'expect'>,
  body: Buffer | undefined,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = { ...spec.headers, ...(body ? { 'Content-Length': String(body.length) } : {}) };
    const req = request(`${base}${spec.path}`, { method: spec.method, agent, headers }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => {
        if (res.statusCode !== spec.expect) {
          reject(new Error(`${spec.method} ${spec.path}: expected ${spec.expect}, got ${res.statusCode}`));
        } else {
          resolve(bytes);
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
