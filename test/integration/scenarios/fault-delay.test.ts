import { describe, expect, it } from 'vitest';
import { BASIC, timed, until, useRunningMock } from './wire-client.js';

const get = (url: string): Promise<Response> =>
  fetch(url, { headers: { Authorization: BASIC, 'X-Client-Specification': '2' } });

describe('delays: delayMs alone and global latency', () => {
  const running = useRunningMock(() => ({ seed: 'empty' }));

  it('delayMs alone delays the real response, which then arrives unchanged', async () => {
    const mock = await running.start({
      scenario: { faults: [{ match: { method: 'GET', path: '/v2/account' }, delayMs: 300 }] },
    });
    const slow = await timed(() => get(`${mock.url}/v2/account`));
    expect(slow.value.status).toBe(200);
    expect(await slow.value.text()).toContain('<username>demo</username>');
    expect(slow.ms).toBeGreaterThanOrEqual(290);
    expect((await mock.requests()).at(-1)).toMatchObject({
      path: '/v2/account',
      status: 200,
      fault: 'faults[0]',
      outcome: 'answered',
    });
  });

  it('global latency delays every service request by at least minMs, but not the admin API', async () => {
    const mock = await running.start({ scenario: { latency: { minMs: 200, maxMs: 260, seed: 3 } } });
    for (const path of ['/v2', '/v2/tags']) {
      const { value, ms } = await timed(() => get(`${mock.url}${path}`));
      expect(value.status).toBe(200);
      expect(ms).toBeGreaterThanOrEqual(195);
    }
    // The admin API answers while a service request is held by a latency of a minute (an order, not a timing).
    await mock.useScenario({ latency: { minMs: 60_000, maxMs: 60_000, seed: 3 } });
    const controller = new AbortController();
    let serviceAnswered = false;
    const held = fetch(`${mock.url}/v2/tags`, {
      headers: { Authorization: BASIC },
      signal: controller.signal,
    }).then(
      () => (serviceAnswered = true),
      (err: Error) => err.name,
    );
    const admin = await fetch(`${mock.url}/__admin/scenario`);
    expect(admin.status).toBe(200);
    expect(serviceAnswered).toBe(false);
    controller.abort();
    expect(await held).toBe('AbortError');
  });

  it('a client that gives up during a delay leaves the server serving, and the journal says aborted', async () => {
    const mock = await running.start({
      scenario: { faults: [{ match: { method: 'GET', path: '/v2/tags' }, delayMs: 5000 }] },
    });
    const controller = new AbortController();
    const pending = fetch(`${mock.url}/v2/tags`, {
      headers: { Authorization: BASIC },
      signal: controller.signal,
    }).catch((err: Error) => err.name);
    // Aborted once the server holds it (the journal has it, pending), and looked at once it is no longer pending.
    await until(mock.requests, (entries) => entries.some((e) => e.path === '/v2/tags'));
    controller.abort();
    expect(await pending).toBe('AbortError');
    const settled = await until(mock.requests, (entries) => entries.at(-1)?.outcome !== 'pending');
    expect(settled.at(-1)).toMatchObject({ path: '/v2/tags', outcome: 'aborted', status: null });
    expect((await get(`${mock.url}/v2`)).status).toBe(200);
  });
});
