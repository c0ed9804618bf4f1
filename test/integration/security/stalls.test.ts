import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { BASIC_DEMO } from '../../helpers/cli.js';

let mock: RunningMock | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await mock?.close();
  mock = undefined;
});

/** A raw client socket; `closed` resolves when the server closes it, `answer` with the first bytes it sends. */
function openSocket(port: number): { socket: Socket; closed: Promise<void>; answer: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  socket.on('error', () => undefined);
  const answer = new Promise<string>((resolve) => socket.once('data', (d: Buffer) => resolve(d.toString('latin1'))));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, closed, answer };
}

/** Waits (bounded: 200 tries) until the journal shows a request to `path` in flight. */
async function inFlight(m: RunningMock, path: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await m.requests()).some((r) => r.path === path && r.outcome === 'pending')) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${path} never arrived`);
}

const getV2 = (m: RunningMock) =>
  fetch(`${m.url}/v2`, { headers: { Authorization: BASIC_DEMO, 'X-Client-Specification': '2' } });

describe('no client can stall a switch, a reset or the other clients (issue 10, finding 3)', () => {
  it('a PUT that sends 10 of 1,000 bytes and idles does not hold POST /__admin/reset or other clients; it loses its connection', async () => {
    mock = await startMock({ switchGraceMs: 300 });
    const slow = openSocket(mock.port);
    slow.socket.write(
      `PUT /dav/slow.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${BASIC_DEMO}\r\nContent-Length: 1000\r\n\r\n${'x'.repeat(10)}`,
    );
    await inFlight(mock, '/dav/slow.bin');
    const [reset, other] = await Promise.all([fetch(`${mock.url}/__admin/reset`, { method: 'POST' }), getV2(mock)]);
    expect(reset.status).toBe(204);
    expect(other.status).toBe(200);
    await slow.closed;
    // The partial upload left nothing behind, and the service goes on.
    expect((await fetch(`${mock.url}/dav/slow.bin`, { headers: { Authorization: BASIC_DEMO } })).status).toBe(404);
    expect((await getV2(mock)).status).toBe(200);
  });

  it('an unread 64 MB download does not make mock.reset() wait forever', async () => {
    mock = await startMock({ switchGraceMs: 300 });
    const root = mock.store.root('demo');
    await mock.store.createFile('demo', root.id, { name: 'big.bin' }, Buffer.alloc(64 * 1024 * 1024, 7));
    const reader = openSocket(mock.port);
    reader.socket.pause(); // never reads: the server's writes back up
    reader.socket.write(`GET /dav/big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${BASIC_DEMO}\r\n\r\n`);
    await inFlight(mock, '/dav/big.bin');
    await mock.reset();
    await mock.useScenario('empty');
    reader.socket.resume(); // read what was sent before the server closed it, then see the close
    await reader.closed;
    expect((await getV2(mock)).status).toBe(200);
  });

  it('a request that keeps its scenario finishes under it when it ends within the grace period', async () => {
    mock = await startMock({ switchGraceMs: 10_000 });
    const put = openSocket(mock.port);
    put.socket.write(
      `PUT /dav/late.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${BASIC_DEMO}\r\nContent-Length: 4\r\n\r\nab`,
    );
    await inFlight(mock, '/dav/late.txt');
    const switching = mock.useScenario('quota-exceeded');
    put.socket.write('cd'); // the upload completes under the old scenario (quota-exceeded would answer 507)
    await switching;
    expect(await put.answer).toMatch(/^HTTP\/1\.1 201/);
  });

  it(
    'closes a connection that stays idle past the idle timeout, and lets a slow upload that keeps moving finish',
    { timeout: 30_000 },
    async () => {
      mock = await startMock({ timeouts: { idleMs: 2500 } });
      const idle = openSocket(mock.port);
      idle.socket.write(
        `PUT /dav/idle.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${BASIC_DEMO}\r\nContent-Length: 100\r\n\r\n`,
      );
      await idle.closed;
      const slow = openSocket(mock.port);
      slow.socket.write(
        `PUT /dav/slow.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${BASIC_DEMO}\r\nContent-Length: 30\r\n\r\n`,
      );
      for (let i = 0; i < 30; i++) {
        slow.socket.write('s');
        await new Promise((r) => setTimeout(r, 100)); // 3 s in all, longer than the idle limit, never 2.5 s without a byte
      }
      expect(await slow.answer).toMatch(/^HTTP\/1\.1 201/);
    },
  );
});
