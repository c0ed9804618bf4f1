import { Agent } from 'node:http';
import { send } from './load.js';

/** One request of the scale benchmark: method, path, headers and an optional body. */
export interface ScaleRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
  /** The status that counts as success. */
  expect: number;
}

export interface CountResult {
  requests: number;
  seconds: number;
  perSecond: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
  bytesIn: number;
}

/**
 * Sends `count` requests (built by `next(i)`) to `base` over keep-alive loopback connections,
 * `concurrency` at a time, and measures each one; any unexpected status aborts the run.
 */
export async function runCount(
  base: string,
  next: (i: number) => ScaleRequest,
  count: number,
  concurrency: number,
): Promise<CountResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  let issued = 0;
  let bytesIn = 0;
  const started = process.hrtime.bigint();
  const lane = async (): Promise<void> => {
    while (issued < count) {
      const spec = next(issued++);
      const t0 = process.hrtime.bigint();
      bytesIn += await send(agent, base, spec, spec.body);
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
  } finally {
    agent.destroy();
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  const at = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    requests: latencies.length,
    seconds,
    perSecond: latencies.length / seconds,
    meanMs: latencies.reduce((s, l) => s + l, 0) / Math.max(1, latencies.length),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    bytesIn,
  };
}
