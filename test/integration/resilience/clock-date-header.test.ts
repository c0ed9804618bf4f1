// The Date header on the wire: the mock clock's time as the answer goes out, made again whenever the
// clock shows another second (running on, set, advanced), never a stale text; an answer with its own Date keeps it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp, startMock, type MockApp, type RunningMock } from '../../../src/index.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const FROZEN = '2025-01-01T00:00:00Z';
const FROZEN_MS = Date.parse(FROZEN);
const DAY_MS = 86_400_000;
const AUTH = { Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}` };

const servers: Server[] = [];
let mock: RunningMock | undefined;
let mockApp: MockApp | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await mockApp?.close();
  mockApp = undefined;
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const dateOf = async (url: string): Promise<number> => {
  const res = await fetch(url, { headers: AUTH });
  await res.arrayBuffer();
  return Date.parse(res.headers.get('date') ?? '');
};

describe('the Date header follows the mock clock', () => {
  const tmp = useTempDir();

  it('a frozen clock moved by less than a second, by a second, and set back: each answer shows the clock as it stands, floored to the second', async () => {
    mock = await startMock({ clock: { frozen: FROZEN } });
    const entry = `${mock.url}/v2`;
    expect(await dateOf(entry)).toBe(FROZEN_MS);
    await mock.clock.advance('1s');
    expect(await dateOf(entry)).toBe(FROZEN_MS + 1000);
    await mock.clock.advance('500ms');
    expect(await dateOf(entry)).toBe(FROZEN_MS + 1000);
    await mock.clock.advance('500ms');
    expect(await dateOf(entry)).toBe(FROZEN_MS + 2000);
    await mock.clock.set(FROZEN);
    expect(await dateOf(entry)).toBe(FROZEN_MS);
  });

  it('a running clock advanced a day between two answers in the same real second: the second answer is a day on at once', async () => {
    // Real time held still in this process (only Date is faked; timers run), so both answers are in one real second.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-03-01T10:00:00.400Z') });
    try {
      mock = await startMock();
      const entry = `${mock.url}/v2`;
      const first = await dateOf(entry);
      await mock.clock.advance('1d');
      const second = await dateOf(entry);
      expect(first).toBe(Date.parse('2026-03-01T10:00:00Z'));
      expect(second - first).toBe(DAY_MS);
    } finally {
      vi.useRealTimers();
    }
  });

  it('the Date is stamped as the answer goes out: a clock advanced after the request arrived shows in its answer', async () => {
    mockApp = await createApp({ clock: { frozen: FROZEN } });
    const clock = mockApp.options.clock;
    // Heard on arrival (the journal's first step), before the service answers.
    mockApp.journal.subscribe((event) => {
      if (event.type === 'added') clock.advance('1d');
    });
    const server = createServer();
    mockApp.attach(server);
    const url = await listen(server);
    expect(await dateOf(`${url}/v2`)).toBe(FROZEN_MS + DAY_MS);
  });

  it("an answer that brings its own Date keeps it: record mode passes the upstream's Date through", async () => {
    const upstreamDate = 'Mon, 01 Jan 2001 00:00:00 GMT';
    const upstream = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain', date: upstreamDate });
        res.end('from upstream');
      }),
    );
    mock = await startMock({
      clock: { frozen: FROZEN },
      mode: { kind: 'record', upstream, out: `${tmp.path}/dated.jsonl` },
      log: () => undefined,
    });
    const res = await fetch(`${mock.url}/v2/anything`);
    expect(await res.text()).toBe('from upstream');
    expect(res.headers.get('date')).toBe(upstreamDate);
  });
});
