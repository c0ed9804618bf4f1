import { describe, expect, it } from 'vitest';
import type { ScenarioDefinition } from '../../../src/index.js';
import { firstFileId, patternBytes, rawRequest, settledJournal, timedExchange } from './network-client.js';
import { parseResponse, useRunningMock } from './wire-client.js';

const KiB = 1024;
const BODY = patternBytes(128 * KiB);
const seeded = (extra: ScenarioDefinition): ScenarioDefinition => ({
  seed: { tree: [{ file: 'big.bin', base64: BODY.toString('base64') }] },
  ...extra,
});
const CONTENT = { method: 'GET', path: '/v2/files/*/content' };

describe('network conditions on the answer, on the wire (bandwidth down, slice, hang, slowClose)', () => {
  const running = useRunningMock(() => ({}));

  it('bandwidth down 64 KiB/s: a 128 KiB download arrives whole at about that rate (about 2 s)', async () => {
    const lines: string[] = [];
    const mock = await running.start({
      scenario: seeded({ faults: [{ match: CONTENT, bandwidth: { down: '64 KiB/s' } }] }),
      log: (l) => lines.push(l),
    });
    const id = await firstFileId(mock.url);
    const result = await timedExchange(mock.port, rawRequest('GET', `/v2/files/${id}/content`), 20000);
    const res = parseResponse(result.bytes);
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe(String(BODY.length));
    expect(res.body.equals(BODY)).toBe(true);
    // A rate, with a wide margin for a loaded machine: between half and one and a half times 64 KiB/s.
    const rate = BODY.length / (result.endMs / 1000);
    expect(rate).toBeGreaterThan(32 * KiB);
    expect(rate).toBeLessThan(100 * KiB);
    expect((await mock.requests()).at(-1)).toMatchObject({
      network: { conditions: ['bandwidth'], bytesOut: BODY.length, bytesIn: 0 },
    });
    expect(lines.find((l) => l.startsWith('GET /v2/files/'))).toMatch(
      new RegExp(` 200 .* network=bandwidth in=0B out=${BODY.length}B$`),
    );
  });

  it('the network block paces every answer, WebDAV too; a rule of its own replaces it', async () => {
    const mock = await running.start({
      scenario: seeded({
        network: { bandwidth: { down: 256 * KiB } },
        faults: [{ match: { method: 'GET', path: '/dav/**' }, bandwidth: { down: '1 MiB/s' } }],
      }),
    });
    const id = await firstFileId(mock.url);
    // WebDAV's routes load on its first request: load them before the clocks start.
    await timedExchange(mock.port, rawRequest('OPTIONS', '/dav/'), 20000);
    // Side by side, so a busy machine slows both alike: 128 KiB at 256 KiB/s is about 500 ms, at 1 MiB/s about 125 ms.
    const [rest, dav] = await Promise.all([
      timedExchange(mock.port, rawRequest('GET', `/v2/files/${id}/content`), 20000),
      timedExchange(mock.port, rawRequest('GET', '/dav/big.bin'), 20000),
    ]);
    expect(parseResponse(rest.bytes).body.equals(BODY)).toBe(true);
    expect(parseResponse(dav.bytes).body.equals(BODY)).toBe(true);
    expect(rest.endMs).toBeGreaterThan(250);
    expect(dav.endMs).toBeLessThan(rest.endMs);
    const entries = (await mock.requests()).slice(-2);
    const restEntry = entries.find((e) => e.path.startsWith('/v2/'));
    const davEntry = entries.find((e) => e.path.startsWith('/dav/'));
    expect(restEntry).toMatchObject({ fault: null, network: { conditions: ['bandwidth'], bytesOut: BODY.length } });
    expect(davEntry).toMatchObject({
      fault: 'faults[0]',
      network: { conditions: ['bandwidth'], bytesOut: BODY.length },
    });
  });

  it('slice: the same bytes in more reads, each at most the slice (with seeded jitter), spaced by the delay', async () => {
    const text = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(10); // 360 bytes
    const scenario = (slice?: ScenarioDefinition['network']): ScenarioDefinition => ({
      seed: { tree: [{ file: 'a.txt', text }] },
      faults: slice ? [{ match: CONTENT, slice: { bytes: 40, jitterBytes: 10, delayMs: 15, seed: 4 } }] : [],
    });
    const plain = await running.start({ scenario: scenario() });
    const plainId = await firstFileId(plain.url);
    const whole = await timedExchange(plain.port, rawRequest('GET', `/v2/files/${plainId}/content`));
    await plain.close();
    const mock = await running.start({ scenario: scenario({}) });
    const id = await firstFileId(mock.url);
    const sliced = await timedExchange(mock.port, rawRequest('GET', `/v2/files/${id}/content`));
    expect(parseResponse(sliced.bytes).body.toString()).toBe(text);
    expect(parseResponse(whole.bytes).body.toString()).toBe(text);
    expect(whole.reads.length).toBeLessThanOrEqual(2);
    // 360 bytes in slices of 30 to 50: at least 8 pieces (the first with the headers), at least 7 gaps of 15 ms.
    expect(sliced.reads.length).toBeGreaterThanOrEqual(8);
    expect(sliced.endMs).toBeGreaterThan(7 * 15 - 5);
    const bodyReads = sliced.reads.slice(1).map((r) => r.size);
    expect(Math.max(...bodyReads)).toBeLessThanOrEqual(50);
    expect((await mock.requests()).at(-1)).toMatchObject({ network: { conditions: ['slice'], bytesOut: text.length } });
  });

  it('hang with afterBytes 0 keeps the socket open and silent for its ms, then closes it', async () => {
    const mock = await running.start({
      scenario: { faults: [{ match: { method: 'GET', path: '/v2' }, hang: { ms: 600 } }] },
    });
    const result = await timedExchange(mock.port, rawRequest('GET', '/v2'), 5000);
    expect(result.bytes.length).toBe(0);
    expect(result.ended).toBe('end');
    expect(result.endMs).toBeGreaterThan(550);
    expect((await settledJournal(mock.requests)).at(-1)).toMatchObject({
      outcome: 'closed',
      status: null,
      network: { conditions: ['hang'], bytesOut: 0 },
    });
  });

  it('hang after N bytes: the headers and N body bytes, then silence until the client gives up; then a reset after ms', async () => {
    const mock = await running.start({
      scenario: seeded({
        faults: [
          { match: CONTENT, hang: { afterBytes: 1000 }, times: 1 },
          { match: CONTENT, hang: { afterBytes: 10, ms: 300, then: 'reset' } },
        ],
      }),
    });
    const id = await firstFileId(mock.url);
    const held = await timedExchange(mock.port, rawRequest('GET', `/v2/files/${id}/content`), 800);
    expect(held.ended).toBe('open');
    const res = parseResponse(held.bytes);
    expect(res.status).toBe(200);
    expect(res.body.equals(BODY.subarray(0, 1000))).toBe(true);
    // Nothing arrived after the first bytes: the headers and 1000 body bytes are all the client read.
    expect(held.bytes.length).toBe(held.bytes.indexOf('\r\n\r\n') + 4 + 1000);
    const reset = await timedExchange(mock.port, rawRequest('GET', `/v2/files/${id}/content`), 5000);
    expect(reset.ended).toBe('reset');
    expect(parseResponse(reset.bytes).body.length).toBe(10);
    const [first, second] = await settledJournal(mock.requests);
    expect(first).toMatchObject({ outcome: 'aborted', network: { conditions: ['hang'], bytesOut: 1000 } });
    expect(second).toMatchObject({ outcome: 'reset', network: { conditions: ['hang'], bytesOut: 10 } });
  });

  it('hang after N bytes on an answer without a body (HEAD): the status and headers, then silence, then the close', async () => {
    const mock = await running.start({
      scenario: seeded({ faults: [{ match: { method: 'HEAD', path: '/dav/**' }, hang: { afterBytes: 1, ms: 300 } }] }),
    });
    const result = await timedExchange(mock.port, rawRequest('HEAD', '/dav/big.bin'), 5000);
    const res = parseResponse(result.bytes);
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe(String(BODY.length));
    expect(res.body.length).toBe(0);
    expect(result.endMs - result.reads.at(-1)!.atMs).toBeGreaterThan(250);
  });

  it('slowClose: the whole answer with Connection: close, and the socket closes its ms after the last byte', async () => {
    const mock = await running.start({
      scenario: { faults: [{ match: { method: 'GET', path: '/v2' }, slowClose: { ms: 500 } }] },
    });
    const result = await timedExchange(mock.port, rawRequest('GET', '/v2', { Connection: 'keep-alive' }), 5000);
    const res = parseResponse(result.bytes);
    expect(res.status).toBe(200);
    expect(res.headers['connection']).toBe('close');
    expect(res.body.length).toBe(Number(res.headers['content-length']));
    expect(result.ended).toBe('end');
    expect(result.endMs - result.reads.at(-1)!.atMs).toBeGreaterThan(450);
    expect((await settledJournal(mock.requests)).at(-1)).toMatchObject({
      outcome: 'closed',
      network: { conditions: ['slowClose'] },
    });
  });

  it('replayed answers are shaped too: a recording under bandwidth and slice gives the same bytes, slower and in more reads', async () => {
    const plain = await running.start({ scenario: { recording: 'example-session' } });
    const whole = await timedExchange(plain.port, rawRequest('GET', '/v2'));
    await plain.close();
    const mock = await running.start({
      scenario: {
        recording: 'example-session',
        faults: [
          { match: { method: 'GET', path: '/v2' }, bandwidth: { down: 2000 }, slice: { bytes: 100, delayMs: 5 } },
        ],
      },
    });
    const shaped = await timedExchange(mock.port, rawRequest('GET', '/v2'));
    const expected = parseResponse(whole.bytes);
    const got = parseResponse(shaped.bytes);
    expect(expected.status).toBe(200);
    expect(got.status).toBe(200);
    expect(got.headers['content-length']).toBe(expected.headers['content-length']);
    expect(got.body.equals(expected.body)).toBe(true);
    expect(shaped.reads.length).toBeGreaterThan(expected.body.length / 100);
    // At 2000 bytes a second, the body takes its length / 2000 seconds, less one 50 ms burst.
    expect(shaped.endMs).toBeGreaterThan((expected.body.length / 2000) * 1000 * 0.7);
    expect((await mock.requests()).at(-1)).toMatchObject({
      network: { conditions: ['bandwidth', 'slice'], bytesOut: expected.body.length },
    });
  });

  it('conditions compose with after, times and a seeded probability', async () => {
    const mock = await running.start({
      scenario: {
        faults: [
          { match: { method: 'GET', path: '/v2' }, after: 1, times: 1, hang: { ms: 100 } },
          {
            match: { method: 'GET', path: '/v2/account' },
            probability: 0.5,
            seed: 3,
            slice: { bytes: 20, delayMs: 1 },
          },
        ],
      },
    });
    const first = await timedExchange(mock.port, rawRequest('GET', '/v2'));
    const second = await timedExchange(mock.port, rawRequest('GET', '/v2'));
    const third = await timedExchange(mock.port, rawRequest('GET', '/v2'));
    expect([first, second, third].map((r) => r.bytes.length > 0)).toEqual([true, false, true]);
    for (let i = 0; i < 8; i++) await timedExchange(mock.port, rawRequest('GET', '/v2/account'));
    const sliced = (await mock.requests()).filter((e) => e.path === '/v2/account').map((e) => e.network !== null);
    expect(sliced).toContain(true);
    expect(sliced).toContain(false);
    // The same seed gives the same choices on a fresh mock.
    await mock.reset();
    for (let i = 0; i < 8; i++) await timedExchange(mock.port, rawRequest('GET', '/v2/account'));
    expect((await mock.requests()).map((e) => e.network !== null)).toEqual(sliced);
  });
});
