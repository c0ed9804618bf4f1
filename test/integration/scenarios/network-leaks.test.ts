import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type MockApp, type ScenarioDefinition } from '../../../src/index.js';
import { followTimers, patternBytes, rawRequest } from './network-client.js';

const KiB = 1024;
const BIG = patternBytes(256 * KiB);
const seed = { tree: [{ file: 'big.bin', base64: BIG.toString('base64') }] };
const DAV_GET = { method: 'GET', path: '/dav/**' };
const DAV_PUT = { method: 'PUT', path: '/dav/**' };

interface Served {
  mock: MockApp;
  server: Server;
  port: number;
}

let current: Served | undefined;
afterEach(async () => {
  if (!current) return;
  current.server.closeAllConnections();
  await new Promise((r) => current!.server.close(r));
  await current.mock.close();
  current = undefined;
});

async function serve(scenario: ScenarioDefinition): Promise<Served> {
  const mock = await createApp({ scenario });
  const server = createServer(mock.app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  current = { mock, server, port: (server.address() as AddressInfo).port };
  return current;
}

/** A moment for the last timers' destroy hooks (async_hooks sends them a tick after). */
async function settle(): Promise<void> {
  await sleep(20);
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
}
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const connections = (server: Server): Promise<number> =>
  new Promise((r, j) => server.getConnections((e, n) => (e ? j(e) : r(n))));

/** Waits (up to 2 s) for the server to hold no connection, then says how many it holds. */
async function drained(server: Server): Promise<number> {
  for (let i = 0; i < 200 && (await connections(server)) > 0; i++) await sleep(10);
  return connections(server);
}

/** A client that sends `request`, then `body` bytes (if any) as fast as it can, and leaves after `leaveMs`. */
async function leaveMidway(port: number, request: string, leaveMs: number, body = 0): Promise<number> {
  const socket = connect(port, '127.0.0.1');
  let received = 0;
  socket.on('data', (c: Buffer) => (received += c.length));
  socket.on('error', () => undefined);
  await new Promise((r) => socket.once('connect', r));
  socket.write(request);
  let sent = 0;
  const piece = Buffer.alloc(16 * KiB, 1);
  const pump = (): void => {
    while (sent < body && socket.writable) {
      sent += piece.length;
      if (!socket.write(piece)) return;
    }
  };
  socket.on('drain', pump);
  pump();
  await sleep(leaveMs);
  socket.destroy();
  return received;
}

const upload = (size: number): string =>
  rawRequest('PUT', '/dav/up.bin', { 'Content-Length': String(size), 'Content-Type': 'application/octet-stream' });

describe('nothing leaks when the client leaves in the middle of a network condition', () => {
  it.each<[string, ScenarioDefinition['faults']]>([
    ['a throttled download', [{ match: DAV_GET, bandwidth: { down: '16 KiB/s' } }]],
    ['a sliced download', [{ match: DAV_GET, slice: { bytes: 1000, delayMs: 200 } }]],
    ['a hang that waits for the client', [{ match: DAV_GET, hang: { afterBytes: 100 } }]],
    ['a hang with a long ms', [{ match: DAV_GET, hang: { afterBytes: 0, ms: 60_000, then: 'reset' } }]],
    ['a slow close', [{ match: DAV_GET, slowClose: { ms: 60_000 } }]],
  ])('%s: the connection goes and no timer stays', async (_name, faults) => {
    const { port, server } = await serve({ seed, faults });
    const timers = followTimers();
    await leaveMidway(port, rawRequest('GET', '/dav/big.bin', { Connection: 'keep-alive' }), 300);
    expect(await drained(server)).toBe(0);
    await settle();
    timers.stop();
    expect(timers.pending()).toEqual([]);
  });

  it('a throttled upload: once the client has left, a reset lifts the limit, the rest is read and the connection goes', async () => {
    const { port, server, mock } = await serve({ seed, faults: [{ match: DAV_PUT, bandwidth: { up: '16 KiB/s' } }] });
    const timers = followTimers();
    await leaveMidway(port, upload(BIG.length), 300, BIG.length);
    await mock.reset();
    expect(await drained(server)).toBe(0);
    await settle();
    timers.stop();
    expect(timers.pending()).toEqual([]);
  });

  it.each<[string, ScenarioDefinition['faults']]>([
    ['a stalled upload that waits for the client', [{ match: DAV_PUT, stallUpload: { afterBytes: 1000 } }]],
    [
      'a stalled upload with a long ms',
      [{ match: DAV_PUT, stallUpload: { afterBytes: 1000, ms: 60_000 }, respond: { status: 408 } }],
    ],
    ['a hang of the request', [{ match: DAV_PUT, hang: { of: 'request', afterBytes: 1000, ms: 60_000 } }]],
  ])(
    '%s: a client that left cannot be seen while its bytes are unread; a switch ends the connection',
    async (_name, faults) => {
      const { port, server, mock } = await serve({ seed, faults });
      const timers = followTimers();
      await leaveMidway(port, upload(64 * 1024 * KiB), 300, 64 * 1024 * KiB);
      await mock.useScenario({ name: 'next' });
      expect(await drained(server)).toBe(0);
      await settle();
      timers.stop();
      expect(timers.pending()).toEqual([]);
      expect((await mock.requests()).at(-1)).toMatchObject({ outcome: 'closed', network: { bytesIn: 1000 } });
    },
  );

  it('closing the mock ends a held connection too', async () => {
    const { port, mock, server } = await serve({ seed, faults: [{ match: DAV_PUT, stallUpload: { afterBytes: 0 } }] });
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    const closed = new Promise((r) => socket.once('close', r));
    socket.write(`${upload(1 << 30)}`);
    socket.write(Buffer.alloc(64 * KiB));
    await sleep(100);
    expect((await mock.requests()).at(-1)).toMatchObject({ outcome: 'pending' });
    current = undefined;
    await mock.close();
    await closed;
    expect(socket.destroyed).toBe(true);
    await new Promise((r) => server.close(r));
  });
});
