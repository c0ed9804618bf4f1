import { describe, expect, it } from 'vitest';
import { BASIC, timed, useRunningMock } from './wire-client.js';

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
    const admin = await timed(() => fetch(`${mock.url}/__admin/scenario`));
    expect(admin.value.status).toBe(200);
    expect(admin.ms).toBeLessThan(195);
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
    await new Promise((r) => setTimeout(r, 100));
    controller.abort();
    expect(await pending).toBe('AbortError');
    await new Promise((r) => setTimeout(r, 50));
    expect((await mock.requests()).at(-1)).toMatchObject({ path: '/v2/tags', outcome: 'aborted', status: null });
    expect((await get(`${mock.url}/v2`)).status).toBe(200);
  });
});
