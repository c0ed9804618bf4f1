import { parseDuration } from '../clock/durations.js';
import { seededRandom } from './seeded-random.js';
import type { Latency, LogNormalLatency } from './types.js';

/** The standard normal's 99th percentile: p99 = median * e^(sigma * Z99) for a log-normal. */
const Z99 = 2.3263478740408408;

/** The longest delay one draw may give, unless the latency says otherwise (the schema's delayMs bound). */
export const MAX_DRAWN_MS = 600_000;

export const isLogNormal = (latency: Latency): latency is LogNormalLatency => 'median' in latency;

/** A log-normal's parameters in ms, checked: median > 0, p99 >= median. Throws saying which field is wrong. */
export function logNormalOf(latency: LogNormalLatency): { medianMs: number; p99Ms: number; maxMs: number } {
  const medianMs = fieldMs(latency.median, 'median');
  const p99Ms = fieldMs(latency.p99, 'p99');
  if (!(medianMs > 0)) throw new LatencyError('median', 'must be more than 0');
  if (p99Ms < medianMs) throw new LatencyError('p99', 'must not be below the median');
  return { medianMs, p99Ms, maxMs: latency.maxMs ?? MAX_DRAWN_MS };
}

/** A latency field that cannot be used; `field` is relative to the latency object. */
export class LatencyError extends Error {
  override readonly name = 'LatencyError';
  readonly field: string;
  constructor(field: string, problem: string) {
    super(problem);
    this.field = field;
  }
}

function fieldMs(value: string | number, field: string): number {
  try {
    return parseDuration(value);
  } catch (err) {
    throw new LatencyError(field, (err as Error).message);
  }
}

/**
 * Draws delays in whole ms for a latency, seeded (`seed`, default 1): the same seed gives the same
 * delays in the same order. Uniform between minMs and maxMs, or log-normal given by its median and p99
 * (a long tail, as real networks have), cut at maxMs (default 10 minutes).
 */
export function latencySampler(latency: Latency): () => number {
  const draw = seededRandom(latency.seed ?? 1);
  if (!isLogNormal(latency)) {
    const span = Math.max(0, (latency.maxMs ?? latency.minMs) - latency.minMs);
    return () => latency.minMs + Math.round(draw() * span);
  }
  const { medianMs, p99Ms, maxMs } = logNormalOf(latency);
  const mu = Math.log(medianMs);
  const sigma = (Math.log(p99Ms) - mu) / Z99;
  return () => {
    // Box-Muller: two uniform draws make one standard normal; 1 - u keeps the log away from 0.
    const z = Math.sqrt(-2 * Math.log(1 - draw())) * Math.cos(2 * Math.PI * draw());
    return Math.min(maxMs, Math.round(Math.exp(mu + sigma * z)));
  };
}

/** For people: "20-80 ms", "log-normal, median 80ms, p99 1.5s". */
export function describeLatency(latency: Latency): string {
  if (isLogNormal(latency)) return `log-normal, median ${String(latency.median)}, p99 ${String(latency.p99)}`;
  return `${latency.minMs}${latency.maxMs !== undefined ? `-${latency.maxMs}` : ''} ms`;
}
