import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { patternBytes, rawRequest, settledJournal, timedExchange } from './network-client.js';
import { BASIC, parseResponse, useRunningMock } from './wire-client.js';

const KiB = 1024;
const HEADERS = { Authorization: BASIC, 'X-Client-Specification': '2' };
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A small WebDAV PUT; 'no answer' when none came within `waitMs`. */
async function davPut(url: string, name: string, waitMs: number): Promise<number | 'no answer'> {
  try {
    const res = await fetch(`${url}/dav/${name}`, {
      method: 'PUT',
      headers: HEADERS,
      body: 'x'.repeat(100),
      signal: AbortSignal.timeout(waitMs),
    });
    await res.arrayBuffer();
    return res.status;
  } catch (err) {
    if ((err as Error).name === 'TimeoutError') return 'no answer';
    throw err;
  }
}

describe('the built-in network scenarios', () => {
  const running = useRunningMock(() => ({}));

  it('mobile-network: downloads at about 1 Mbit/s after 80-200 ms, and the fifth upload (seeded) hangs', async () => {
    const body = patternBytes(96 * KiB);
    const mock = await running.start({
      scenario: { seed: { tree: [{ file: 'photo.jpg', base64: body.toString('base64') }] } },
    });
    // mobile-network has no seed of its own: the state stays.
    await mock.useScenario('mobile-network');
    const download = await timedExchange(mock.port, rawRequest('GET', '/dav/photo.jpg'), 10000);
    expect(parseResponse(download.bytes).body.equals(body)).toBe(true);
    expect(download.reads[0]!.atMs).toBeGreaterThanOrEqual(75);
    // 96 KiB at 125 000 bytes a second is about 0.8 s: accept half to twice that rate.
    const rate = body.length / ((download.endMs - download.reads[0]!.atMs) / 1000);
    expect(rate).toBeGreaterThan(62_500);
    expect(rate).toBeLessThan(250_000);
    const outcomes: (number | 'no answer')[] = [];
    for (let i = 0; i < 6; i++) outcomes.push(await davPut(mock.url, `f${i}.txt`, 1500));
    expect(outcomes).toEqual([201, 201, 201, 201, 'no answer', 201]);
    // A switch ends the held upload; the journal then says what held it.
    await mock.useScenario('mobile-network');
    const hung = (await settledJournal(mock.requests)).filter((e) => e.method === 'PUT')[4];
    expect(hung).toMatchObject({
      fault: 'upload-hang',
      outcome: 'closed',
      network: { conditions: ['bandwidth', 'hang(request)'], bytesIn: 100 },
    });
  });

  it('stalled-uploads: the first 64 KiB of an upload are read, then the client is blocked; listings still work', async () => {
    const mock = await running.start({ scenario: 'stalled-uploads' });
    const socket = connect(mock.port, '127.0.0.1');
    socket.on('error', () => undefined);
    let accepted = 0;
    const piece = Buffer.alloc(64 * KiB, 3);
    const pump = (): void => {
      while (socket.writable) {
        accepted += piece.length;
        if (!socket.write(piece)) return;
      }
    };
    socket.on('drain', pump);
    await new Promise((r) => socket.once('connect', r));
    socket.write(rawRequest('PUT', '/dav/movie.mp4', { 'Content-Length': String(1 << 30), Connection: 'keep-alive' }));
    pump();
    await sleep(400);
    const stuck = accepted - socket.writableLength;
    await sleep(300);
    expect(accepted - socket.writableLength).toBe(stuck);
    expect((await fetch(`${mock.url}/dav/`, { method: 'PROPFIND', headers: { ...HEADERS, Depth: '1' } })).status).toBe(
      207,
    );
    socket.destroy();
    await mock.useScenario('default');
    const put = (await settledJournal(mock.requests)).find((e) => e.method === 'PUT');
    expect(put).toMatchObject({
      fault: 'stalled-dav-put',
      network: { conditions: ['stallUpload'], bytesIn: 64 * KiB },
    });
  });
});
