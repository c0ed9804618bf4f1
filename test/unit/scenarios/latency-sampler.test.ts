// The latency sampler as a unit: the same seed gives the same delays, and over many draws the
// log-normal's median and 99th percentile are the ones asked for. Nothing is timed.
import { describe, expect, it } from 'vitest';
import { describeLatency, latencySampler, MAX_DRAWN_MS } from '../../../src/scenarios/latency-sampler.js';
import type { Latency } from '../../../src/scenarios/types.js';

const draws = (latency: Latency, n: number): number[] => {
  const next = latencySampler(latency);
  return Array.from({ length: n }, () => next());
};

/** The q-quantile of the samples (nearest rank). */
function quantile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

describe('the latency sampler', () => {
  it('gives the same delays in the same order for one seed, and others for another seed', () => {
    const latency = { median: '80ms', p99: '1.5s', seed: 42 };
    expect(draws(latency, 50)).toEqual(draws(latency, 50));
    expect(draws(latency, 50)).not.toEqual(draws({ ...latency, seed: 43 }, 50));
    expect(draws({ median: 80, p99: 1500 }, 20)).toEqual(draws({ median: '80ms', p99: '1.5s', seed: 1 }, 20));
  });

  it.each([
    [{ median: '80ms', p99: '1.5s', seed: 1 }, 80, 1500],
    [{ median: '20ms', p99: '60ms', seed: 7 }, 20, 60],
    [{ median: '1s', p99: '30s', seed: 99 }, 1000, 30_000],
  ])('log-normal %j: over 40,000 draws the median and p99 are the ones given', (latency, median, p99) => {
    const samples = draws(latency, 40_000);
    expect(quantile(samples, 0.5) / median).toBeGreaterThan(0.96);
    expect(quantile(samples, 0.5) / median).toBeLessThan(1.04);
    expect(quantile(samples, 0.99) / p99).toBeGreaterThan(0.88);
    expect(quantile(samples, 0.99) / p99).toBeLessThan(1.12);
    // a long tail: the mean sits above the median
    expect(samples.reduce((a, b) => a + b, 0) / samples.length).toBeGreaterThan(median);
    expect(samples.every((s) => Number.isInteger(s) && s >= 0)).toBe(true);
  });

  it('a p99 equal to the median gives that delay every time; maxMs cuts the tail', () => {
    expect(new Set(draws({ median: '50ms', p99: '50ms' }, 100))).toEqual(new Set([50]));
    const cut = draws({ median: '100ms', p99: '10s', maxMs: 2000, seed: 3 }, 5000);
    expect(Math.max(...cut)).toBe(2000);
    expect(Math.max(...draws({ median: '1m', p99: '9m', seed: 5 }, 5000))).toBeLessThanOrEqual(MAX_DRAWN_MS);
  });

  it('uniform: minMs, or seeded between minMs and maxMs, as before', () => {
    expect(new Set(draws({ minMs: 30 }, 10))).toEqual(new Set([30]));
    const samples = draws({ minMs: 100, maxMs: 200, seed: 2 }, 10_000);
    expect(Math.min(...samples)).toBeGreaterThanOrEqual(100);
    expect(Math.max(...samples)).toBeLessThanOrEqual(200);
    expect(quantile(samples, 0.5)).toBeGreaterThan(145);
    expect(quantile(samples, 0.5)).toBeLessThan(155);
    expect(draws({ minMs: 100, maxMs: 200, seed: 2 }, 30)).toEqual(samples.slice(0, 30));
  });

  it('refuses a median of 0 and a p99 below the median, naming the field', () => {
    expect(() => latencySampler({ median: 0, p99: '1s' })).toThrow(/must be more than 0/);
    expect(() => latencySampler({ median: '1s', p99: '10ms' })).toThrow(/must not be below the median/);
    expect(() => latencySampler({ median: 'fast', p99: '1s' })).toThrow(/"fast" is not a duration/);
  });

  it('describes itself for people', () => {
    expect(describeLatency({ median: '80ms', p99: '1.5s' })).toBe('log-normal, median 80ms, p99 1.5s');
    expect(describeLatency({ minMs: 20, maxMs: 80 })).toBe('20-80 ms');
  });
});
