import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectMock, startMock, type RunningMock } from '../../../src/index.js';
import { openWorkerTenant, servedMockUrl } from '../../../src/playwright/served-tenant.js';

let mock: RunningMock | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await mock?.close();
  mock = undefined;
});

describe("cspMockServer's tenant of a served mock, per worker", () => {
  it('makes a tenant named for the worker with its options, and deletes it', async () => {
    mock = await startMock({});
    const { tenant, remove } = await openWorkerTenant(mock.url, 3, { seed: 'empty', users: { ana: 'pw' } });
    expect(tenant.name).toMatch(/^pw-3-[0-9a-f]{8}$/);
    expect(tenant.url).toBe(`${mock.url}/t/${tenant.name}`);
    expect(Object.keys((await tenant.state()).users)).toEqual(['ana']);
    expect((await connectMock(mock.url).tenants()).map((t) => t.name)).toEqual([tenant.name]);
    await remove();
    expect(await connectMock(mock.url).tenants()).toEqual([]);
  });

  it('two workers of the same index (a restarted worker) get two tenants', async () => {
    mock = await startMock({});
    const first = await openWorkerTenant(mock.url, 0, {});
    const second = await openWorkerTenant(mock.url, 0, {});
    expect(first.tenant.name).not.toBe(second.tenant.name);
    await first.tenant.change({ createFolder: '/first-only' });
    const names = async (t: typeof first.tenant) =>
      (await t.state()).users['demo']!.tree.map((n) => ('container' in n ? n.container : n.file));
    expect(await names(first.tenant)).toContain('first-only');
    expect(await names(second.tenant)).not.toContain('first-only');
    await first.remove();
    await second.remove();
  });

  it('uses CSP_MOCK_ADMIN_TOKEN for a served mock that requires a token', async () => {
    mock = await startMock({ adminToken: 's3cret' });
    await expect(openWorkerTenant(mock.url, 1, {})).rejects.toThrow(/requires an admin token/);
    vi.stubEnv('CSP_MOCK_ADMIN_TOKEN', 's3cret');
    const { tenant, remove } = await openWorkerTenant(mock.url, 1, {});
    expect(await tenant.countRequests()).toBe(0);
    await remove();
  });

  it('the URL is the option, else CSP_MOCK_URL; neither is an error naming both', () => {
    vi.stubEnv('CSP_MOCK_URL', 'http://127.0.0.1:9000');
    expect(servedMockUrl('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(servedMockUrl(undefined)).toBe('http://127.0.0.1:9000');
    vi.stubEnv('CSP_MOCK_URL', '');
    expect(() => servedMockUrl(undefined)).toThrow(/cspMockServerUrl .*CSP_MOCK_URL/);
  });
});
