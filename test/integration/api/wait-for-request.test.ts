// waitForRequest and countRequests: in this process (startMock, interceptCloud) and through connectMock's
// one long-poll admin call, with the filters of the journal.
import nock from 'nock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectMock, interceptCloud, RequestWaitTimeout, startMock, type RunningMock } from '../../../src/index.js';
import { MAX_WAITERS } from '../../../src/admin/core-controls.js';
import { BASIC_DEMO } from '../../helpers/cli.js';
import { watchedMock } from '../../helpers/watched-mock.js';

const headers = { Authorization: BASIC_DEMO, 'X-Client-Specification': '2' };

const mocks: RunningMock[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  nock.cleanAll();
  for (const mock of mocks.splice(0)) await mock.close();
  for (const close of closers.splice(0)) await close();
});

async function started(): Promise<RunningMock> {
  const mock = await startMock();
  mocks.push(mock);
  return mock;
}

async function watched(): Promise<{ url: string; subscribed: Promise<void> }> {
  const mock = await watchedMock();
  closers.push(mock.close);
  return mock;
}

/** Counts the admin calls this process makes with fetch (connectMock's only transport). */
function countAdminCalls(): () => number {
  const spy = vi.spyOn(globalThis, 'fetch');
  return () =>
    spy.mock.calls.filter(([input]) => String(input instanceof Request ? input.url : input).includes('/__admin'))
      .length;
}

describe('waitForRequest in this process', () => {
  it('resolves with the journal entry of a request that arrives after the call, once its answer is done', async () => {
    const mock = await started();
    await fetch(`${mock.url}/v2/account`, { headers });
    const waiting = mock.waitForRequest({ method: 'GET', path: '/v2/*' });
    expect((await fetch(`${mock.url}/v2/tags`, { headers })).status).toBe(200);
    const entry = await waiting;
    expect(entry).toMatchObject({ method: 'GET', path: '/v2/tags', status: 200, outcome: 'answered', user: 'demo' });
  });

  it('a request already recorded counts only past a mark the caller names (after: seq, or since: ISO time)', async () => {
    const mock = await started();
    await fetch(`${mock.url}/v2/account`, { headers });
    const [first] = await mock.requests();
    const found = await mock.waitForRequest({ path: '/v2/account', after: first!.seq - 1 }, { timeoutMs: 0 });
    expect(found.seq).toBe(first!.seq);
    const sinceFound = await mock.waitForRequest({ path: '/v2/account', since: first!.time }, { timeoutMs: 0 });
    expect(sinceFound.seq).toBe(first!.seq);
    await expect(mock.waitForRequest({ path: '/v2/account', after: first!.seq }, { timeoutMs: 0 })).rejects.toThrow(
      RequestWaitTimeout,
    );
  });

  it('times out with a RequestWaitTimeout naming the filter and what arrived instead', async () => {
    const mock = await started();
    const waiting = mock.waitForRequest({ method: 'PUT', path: '/v2/files/**' }, { timeoutMs: 300 });
    await fetch(`${mock.url}/v2/account`, { headers });
    const error = await waiting.then(
      () => new Error('resolved'),
      (err: unknown) => err as Error,
    );
    expect(error).toBeInstanceOf(RequestWaitTimeout);
    expect(error.message).toMatch(
      /^no request matching method=PUT path=\/v2\/files\/\*\* arrived within 300 ms \(1 other request arrived meanwhile: #\d+ GET \/v2\/account 200\)$/,
    );
  });

  it('{ arrived: true } resolves while the request is still running', async () => {
    const mock = await started();
    await mock.useScenario({ faults: [{ match: { method: 'GET', path: '/v2/tags' }, delayMs: 60_000 }] });
    const waiting = mock.waitForRequest({ path: '/v2/tags' }, { arrived: true });
    const controller = new AbortController();
    const slow = fetch(`${mock.url}/v2/tags`, { headers, signal: controller.signal }).catch(() => 'aborted');
    const entry = await waiting;
    expect(entry).toMatchObject({ path: '/v2/tags', status: null, outcome: 'pending' });
    controller.abort();
    expect(await slow).toBe('aborted');
  });

  it('filters by user, fault and outcome as the journal does', async () => {
    const mock = await started();
    await mock.useScenario({
      faults: [{ name: 'reset-tags', match: { method: 'GET', path: '/v2/tags' }, connection: 'reset' }],
    });
    const waiting = mock.waitForRequest({ fault: 'reset-tags', outcome: 'reset', user: 'demo' });
    await fetch(`${mock.url}/v2/account`, { headers });
    await fetch(`${mock.url}/v2/tags`, { headers }).catch(() => undefined);
    expect(await waiting).toMatchObject({ path: '/v2/tags', fault: 'reset-tags', outcome: 'reset', status: null });
    expect(await mock.countRequests({ outcome: 'reset' })).toBe(1);
    expect(await mock.countRequests({ user: 'demo' })).toBe(2);
    expect(await mock.countRequests({ user: 'nobody' })).toBe(0);
  });

  it('interceptCloud waits and counts the same way', async () => {
    const base = 'http://waiting.example.test';
    const cloud = await interceptCloud(base);
    try {
      const waiting = cloud.waitForRequest({ path: '/v2/account' });
      expect((await fetch(`${base}/v2/account`, { headers })).status).toBe(200);
      expect((await waiting).status).toBe(200);
      expect(await cloud.countRequests({ path: '/v2/**' })).toBe(1);
    } finally {
      await cloud.restore();
    }
  });
});

describe('waitForRequest through connectMock: one long-poll admin call, no polling', () => {
  it('resolves for a request sent after the wait reached the mock, with exactly one admin call', async () => {
    const { url, subscribed } = await watched();
    const remote = connectMock(url);
    const adminCalls = countAdminCalls();
    const waiting = remote.waitForRequest({ method: 'GET', path: '/v2/account' }, { timeoutMs: 30_000 });
    await subscribed;
    expect((await fetch(`${url}/v2/account`, { headers })).status).toBe(200);
    expect(await waiting).toMatchObject({ method: 'GET', path: '/v2/account', status: 200 });
    expect(adminCalls()).toBe(1);
  });

  it("counts a request that overtakes the wait on its way to the mock (now is the caller's clock)", async () => {
    const mock = await started();
    const remote = connectMock(mock.url);
    const adminCalls = countAdminCalls();
    const waiting = remote.waitForRequest({ path: '/v2/account' });
    await fetch(`${mock.url}/v2/account`, { headers });
    expect((await waiting).path).toBe('/v2/account');
    expect(adminCalls()).toBe(1);
  });

  it("a plain long poll that is the mock's first admin call counts a request sent while the admin routes load", async () => {
    const mock = await started();
    // No since/after: "from now" is when the call reached the mock, not when its lazily loaded route ran.
    const waiting = fetch(`${mock.url}/__admin/requests/wait?path=/v2/account&timeoutMs=30000`);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect((await fetch(`${mock.url}/v2/account`, { headers })).status).toBe(200);
    const answer = (await (await waiting).json()) as { request: { path: string } | null };
    expect(answer.request?.path).toBe('/v2/account');
  });

  it('times out with a RequestWaitTimeout naming the filter, after one admin call', async () => {
    const mock = await started();
    const remote = connectMock(mock.url);
    const adminCalls = countAdminCalls();
    const error = await remote.waitForRequest({ method: 'DELETE' }, { timeoutMs: 200 }).then(
      () => new Error('resolved'),
      (err: unknown) => err as Error,
    );
    expect(error).toBeInstanceOf(RequestWaitTimeout);
    expect(error.message).toMatch(
      /^no request matching method=DELETE since=\S+ arrived within 200 ms \(no other request arrived meanwhile\)$/,
    );
    expect(adminCalls()).toBe(1);
  });

  it('countRequests counts over HTTP', async () => {
    const mock = await started();
    await fetch(`${mock.url}/v2/account`, { headers });
    await fetch(`${mock.url}/v2/nothing`, { headers });
    const remote = connectMock(mock.url);
    expect(await remote.countRequests()).toBe(2);
    expect(await remote.countRequests({ status: 404 })).toBe(1);
  });

  it('the wait endpoint refuses a timeout past its cap and more than its cap of open waits', async () => {
    const mock = await started();
    const tooLong = await fetch(`${mock.url}/__admin/requests/wait?timeoutMs=999999999`);
    expect(tooLong.status).toBe(400);
    expect(await tooLong.text()).toMatch(/timeoutMs must be a whole number of milliseconds from 0 to 240000/);
    const controllers = Array.from({ length: MAX_WAITERS }, () => new AbortController());
    const open = controllers.map((c) =>
      fetch(`${mock.url}/__admin/requests/wait?path=/never&timeoutMs=60000`, { signal: c.signal }).catch(() => null),
    );
    // Each long poll is registered once the mock has answered a call sent after it on the same server.
    let refused: Response | undefined;
    for (;;) {
      const res = await fetch(`${mock.url}/__admin/requests/wait?path=/never&timeoutMs=0`);
      if (res.status === 503) {
        refused = res;
        break;
      }
      await res.text();
    }
    // One client (one Host) holds at most half of the waits: test/integration/security/admin-slots.test.ts.
    expect(await refused.text()).toMatch(
      `at most ${MAX_WAITERS / 2} request waits may be open at once from one source`,
    );
    // A client that goes away frees its wait: then a new one is taken.
    for (const c of controllers) c.abort();
    await Promise.all(open);
    for (;;) {
      const res = await fetch(`${mock.url}/__admin/requests/wait?path=/never&timeoutMs=0`);
      if (res.status === 200) {
        expect(await res.json()).toMatchObject({ request: null });
        break;
      }
      await res.text();
    }
  });
});
