// Latency distributions on the wire: the delay each request was held is the one the seeded sampler
// draws, read from the journal (delayMs), never timed.
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { latencySampler } from '../../../src/scenarios/latency-sampler.js';
import type { Latency } from '../../../src/scenarios/types.js';

const AUTH = { Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}` };

let mock: RunningMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const expected = (latency: Latency, n: number): number[] => {
  const next = latencySampler(latency);
  return Array.from({ length: n }, () => next());
};

/** Sends the requests one after another (so the draws come in order). */
async function send(paths: string[]): Promise<void> {
  for (const path of paths) {
    const res = await fetch(`${mock!.url}${path}`, { headers: AUTH });
    await res.arrayBuffer();
  }
}

describe('latency distributions on the wire', () => {
  it("a scenario's log-normal latency: each request is held the delay the seeded sampler draws, in order", async () => {
    const latency = { median: '3ms', p99: '25ms', seed: 11 };
    mock = await startMock({ scenario: { latency } });
    await send(Array.from({ length: 25 }, () => '/v2'));
    const held = (await mock.requests()).map((e) => e.delayMs);
    expect(held).toEqual(expected(latency, 25).map((ms) => (ms > 0 ? ms : null)));
  });

  it("a rule's latency holds only the requests it applies to; a scenario's latency adds to it", async () => {
    const global = { minMs: 1, maxMs: 4, seed: 5 };
    const rule = { median: '4ms', p99: '30ms', seed: 3 };
    mock = await startMock({
      scenario: {
        latency: global,
        faults: [{ name: 'slow-dav', match: { method: 'GET', path: '/dav/**' }, latency: rule }],
      },
    });
    const paths = ['/v2', '/dav/', '/dav/Documents/', '/v2', '/dav/', '/dav/Documents/readme.txt', '/v2', '/dav/'];
    await send(paths);
    const entries = await mock.requests();
    const globals = expected(global, paths.length);
    const rules = expected(rule, paths.filter((p) => p.startsWith('/dav')).length);
    let r = 0;
    const want = paths.map((p, i) => globals[i]! + (p.startsWith('/dav') ? rules[r++]! : 0));
    expect(entries.map((e) => e.delayMs)).toEqual(want);
    expect(entries.map((e) => e.fault)).toEqual(paths.map((p) => (p.startsWith('/dav') ? 'slow-dav' : null)));
  });

  it('the draws start over on reset (the same seed, the same delays again)', async () => {
    const latency = { median: '2ms', p99: '12ms', seed: 8 };
    mock = await startMock({ scenario: { faults: [{ match: { method: 'GET', path: '/v2' }, latency }] } });
    await send(['/v2', '/v2', '/v2', '/v2']);
    const first = (await mock.requests()).map((e) => e.delayMs);
    await mock.reset();
    await send(['/v2', '/v2', '/v2', '/v2']);
    expect((await mock.requests()).map((e) => e.delayMs)).toEqual(first);
    expect(first).toEqual(expected(latency, 4).map((ms) => (ms > 0 ? ms : null)));
  });

  it('a bad latency is refused with its field named: p99 below the median, both delayMs and latency, no median', async () => {
    mock = await startMock();
    await expect(mock.useScenario({ latency: { median: '1s', p99: '10ms' } })).rejects.toThrow(
      /latency\.p99: must not be below the median/,
    );
    await expect(
      mock.useScenario({ faults: [{ match: { method: '*', path: '/**' }, delayMs: 5, latency: { minMs: 1 } }] }),
    ).rejects.toThrow(/faults\[0\]\.latency: give one delay/);
    await expect(mock.useScenario({ latency: { median: 'soon', p99: '1s' } })).rejects.toThrow(
      /latency\.median: has none of the allowed forms \(A length of time above 0/,
    );
    await expect(mock.useScenario({ latency: { p99: '1s' } as never })).rejects.toThrow(/latency/);
  });
});
