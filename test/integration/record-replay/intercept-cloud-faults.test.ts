import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { interceptCloud, type CloudInterception } from '../../../src/index.js';
import type { FaultRule } from '../../../src/scenarios/types.js';
import { basic } from './support.js';

const BASE = 'http://cloud.example.test';
const AUTH = basic('demo', 'demo');
const TEXT = 'abcdefghijklmnopqrstuvwxyz'.repeat(40); // 1040 bytes

/** What a client saw: an answer (whole or cut), or an error before any answer. */
interface Outcome {
  status?: number;
  body?: string;
  /** The error code of a request that failed before its answer. */
  error?: string;
  /** The body ended early (a truncated answer). */
  cut?: boolean;
}

const codeOf = (err: unknown): string => {
  const e = err as { code?: unknown; name?: string; cause?: { code?: string } };
  if (e.name === 'AbortError') return e.name;
  return typeof e.code === 'string' ? e.code : (e.cause?.code ?? 'unknown');
};

/** A request through fetch: the answer, a failed body, or the error. */
async function viaFetch(path: string, init: RequestInit = {}): Promise<Outcome> {
  let res: Response;
  try {
    res = await fetch(`${BASE}${path}`, { ...init, headers: { authorization: AUTH, ...init.headers } });
  } catch (err) {
    return { error: codeOf(err) };
  }
  try {
    return { status: res.status, body: await res.text() };
  } catch {
    return { status: res.status, cut: true };
  }
}

/** A request through node:http: the answer (and whether it arrived whole), or the error. */
async function viaHttp(path: string, method = 'GET', body = ''): Promise<Outcome> {
  const http = await import('node:http');
  return new Promise((resolve) => {
    const req = http.request(`${BASE}${path}`, { method, headers: { authorization: AUTH } }, (res) => {
      let text = '';
      res.setEncoding('latin1');
      res.on('data', (c: string) => (text += c));
      res.on('error', () => undefined);
      res.on('close', () =>
        resolve(res.complete ? { status: res.statusCode!, body: text } : { status: res.statusCode!, cut: true }),
      );
    });
    req.on('error', (err) => resolve({ error: codeOf(err) }));
    req.end(body);
  });
}

describe('every fault under interceptCloud: the test process lives on, the client sees the fault as on the wire', () => {
  let cloud: CloudInterception | undefined;
  beforeEach(() => nock.disableNetConnect());
  afterEach(async () => {
    await cloud?.restore();
    cloud = undefined;
    nock.cleanAll();
    nock.enableNetConnect();
  });

  const start = async (faults: FaultRule[]): Promise<CloudInterception> => {
    cloud = await interceptCloud(BASE, {
      scenario: { seed: { tree: [{ file: 'big.txt', text: TEXT }] }, faults },
    });
    return cloud;
  };
  /** The mock still answers: nothing the fault did ended this process or the interception. */
  const stillServes = async (): Promise<void> => {
    expect((await viaFetch('/v2/account')).status).toBe(200);
  };

  it('the tag-objects-500 scenario answers 500 and closes, and the process lives on (fetch and node:http)', async () => {
    const crashes: unknown[] = [];
    const onCrash = (err: unknown): number => crashes.push(err);
    process.on('uncaughtException', onCrash);
    cloud = await interceptCloud(BASE, { scenario: 'tag-objects-500' });
    expect(await viaFetch('/v2/tags/x/objects')).toEqual({ status: 500, body: '500 Internal Server Error\n' });
    expect(await viaHttp('/v2/tags/x/objects')).toEqual({ status: 500, body: '500 Internal Server Error\n' });
    await stillServes();
    process.off('uncaughtException', onCrash);
    expect(crashes).toEqual([]);
  });

  it('connection "reset": the client fails with ECONNRESET and no answer', async () => {
    await start([{ match: { method: 'GET', path: '/v2/tags' }, connection: 'reset' }]);
    expect(await viaFetch('/v2/tags')).toEqual({ error: 'ECONNRESET' });
    expect(await viaHttp('/v2/tags')).toEqual({ error: 'ECONNRESET' });
    await stillServes();
  });

  it('afterCommit "reset" and "close": the change is made, the client sees a reset or a hang-up', async () => {
    const mock = await start([
      { match: { method: 'MKCOL', path: '/dav/reset-*' }, afterCommit: 'reset' },
      { match: { method: 'MKCOL', path: '/dav/close-*' }, afterCommit: 'close' },
      { match: { method: 'MKCOL', path: '/dav/answer-*' }, afterCommit: { status: 503, body: 'busy' } },
    ]);
    expect(await viaFetch('/dav/reset-a', { method: 'MKCOL' })).toEqual({ error: 'ECONNRESET' });
    expect(await viaHttp('/dav/reset-b', 'MKCOL')).toEqual({ error: 'ECONNRESET' });
    expect(await viaFetch('/dav/close-a', { method: 'MKCOL' })).toEqual({ error: 'ECONNRESET' });
    expect(await viaHttp('/dav/close-b', 'MKCOL')).toEqual({ error: 'ECONNRESET' });
    expect(await viaHttp('/dav/answer-a', 'MKCOL')).toEqual({ status: 503, body: 'busy' });
    for (const name of ['reset-a', 'reset-b', 'close-a', 'close-b', 'answer-a'])
      expect(mock.mock.store.resolvePath('demo', [name])).toBeDefined();
    await stillServes();
  });

  it('truncateAfterBytes: the status arrives, the body is cut (fetch and node:http)', async () => {
    await start([{ match: { method: 'GET', path: '/dav/big.txt' }, truncateAfterBytes: 100 }]);
    expect(await viaFetch('/dav/big.txt')).toEqual({ status: 200, cut: true });
    expect(await viaHttp('/dav/big.txt')).toEqual({ status: 200, cut: true });
    await stillServes();
  });

  it('a hang that resets after ms cuts the answer; one without ms holds until the client gives up', async () => {
    await start([
      { match: { method: 'GET', path: '/dav/big.txt' }, hang: { afterBytes: 10, ms: 20, then: 'reset' } },
      { match: { method: 'GET', path: '/v2/tags' }, hang: { afterBytes: 0 } },
    ]);
    expect(await viaFetch('/dav/big.txt')).toEqual({ status: 200, cut: true });
    expect(await viaHttp('/dav/big.txt')).toEqual({ status: 200, cut: true });
    const giveUp = new AbortController();
    const held = viaFetch('/v2/tags', { signal: giveUp.signal });
    const arrived = await cloud!.waitForRequest({ path: '/v2/tags' }, { arrived: true });
    // The mock sees the client go, as it would a closed socket: the held request ends.
    const released = cloud!.waitForRequest({ path: '/v2/tags', outcome: 'aborted', after: arrived.seq - 1 });
    giveUp.abort();
    expect((await held).error).toBe('AbortError');
    await released;
    await stillServes();
  });

  it('stallUpload then an answer, a close or a reset: the client sees that end', async () => {
    const stall = { afterBytes: 4, ms: 10 };
    await start([
      { match: { method: 'PUT', path: '/dav/answer.txt' }, stallUpload: stall, respond: { status: 507, body: 'full' } },
      { match: { method: 'PUT', path: '/dav/reset.txt' }, stallUpload: stall, connection: 'reset' },
      { match: { method: 'PUT', path: '/dav/close.txt' }, stallUpload: stall, connection: 'close' },
    ]);
    expect(await viaHttp('/dav/answer.txt', 'PUT', 'some bytes')).toEqual({ status: 507, body: 'full' });
    expect(await viaHttp('/dav/reset.txt', 'PUT', 'some bytes')).toEqual({ error: 'ECONNRESET' });
    expect(await viaFetch('/dav/close.txt', { method: 'PUT', body: 'some bytes' })).toEqual({ error: 'ECONNRESET' });
    await stillServes();
  });

  it('slowClose and a long poll of the admin API (which sets socket timeouts) answer whole', async () => {
    await start([{ match: { method: 'GET', path: '/dav/big.txt' }, slowClose: { ms: 10 } }]);
    expect(await viaHttp('/dav/big.txt')).toEqual({ status: 200, body: TEXT });
    const waited = viaFetch('/__admin/requests/wait?path=/v2/tags&timeoutMs=60000');
    await viaFetch('/v2/tags');
    expect((await waited).status).toBe(200);
    await stillServes();
  });
});
