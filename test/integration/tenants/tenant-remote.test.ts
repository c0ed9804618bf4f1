// connectMock(url).tenant(...) and `csp-mock tenant create|list|delete`, with the control commands on a tenant's --url.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectMock, MockConnectionError, startMock, type RunningMock } from '../../../src/index.js';
import { useTempDir } from '../../helpers/temp-dir.js';
import { cliHere } from '../cli/in-process.js';

const DEMO = { Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}`, 'X-Client-Specification': '2' };
const TOKEN = 'tenant-remote-token';

let mock: RunningMock;

beforeEach(async () => {
  mock = await startMock({ adminToken: TOKEN });
});
afterEach(async () => {
  await mock.close();
});

describe('tenants through connectMock and the command line', () => {
  // The commands' own folder: a mock another test started (and killed) in a shared folder left its address there.
  const cwd = useTempDir('tenant-cli');
  it('connectMock(url).tenant(name, options) makes a tenant and resolves to its own RemoteMock; a second call returns the same one', async () => {
    const server = connectMock(mock.url, { adminToken: TOKEN });
    const w1 = await server.tenant('w1', { scenario: 'tag-objects-500', seed: 'empty' });
    expect(w1.url).toBe(`${mock.url}/t/w1`);
    expect((await w1.scenario()).name).toBe('tag-objects-500');
    expect((await fetch(`${w1.url}/v2/tags/x/objects`, { headers: DEMO })).status).toBe(500);
    expect((await w1.requests()).map((r) => r.status)).toEqual([500]);
    expect(await mock.requests()).toEqual([]);

    // Already there: the same tenant, its scenario and journal as they were (the options of the second call are not applied).
    const again = await server.tenant('w1', { scenario: 'default' });
    expect((await again.scenario()).name).toBe('tag-objects-500');
    expect(await again.countRequests()).toBe(1);

    await w1.reset();
    expect(await w1.requests()).toEqual([]);
    expect((await server.tenants()).map((t) => t.name)).toEqual(['w1']);
    await server.deleteTenant('w1');
    expect(await server.tenants()).toEqual([]);
    await expect(w1.scenario()).rejects.toThrow(/answered 404: (404 )?no tenant "w1" on this server/);
  });

  it("a tenant's scenario given as a path of the caller's is read by the caller and sent inline", async () => {
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'csp-mock-tenant-'));
    try {
      const file = join(dir, 'teapot.json');
      await writeFile(
        file,
        JSON.stringify({
          name: 'teapot',
          faults: [{ match: { method: 'GET', path: '/v2' }, respond: { status: 418 } }],
        }),
      );
      const w1 = await connectMock(mock.url, { adminToken: TOKEN }).tenant('w1', { scenario: file });
      expect((await w1.scenario()).name).toBe('teapot');
      expect((await fetch(`${w1.url}/v2`, { headers: DEMO })).status).toBe(418);
      expect((await fetch(`${mock.url}/v2`, { headers: DEMO })).status).toBe(200);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a tenant's own admin API makes no tenants, and says where they are made", async () => {
    const w1 = await connectMock(mock.url, { adminToken: TOKEN }).tenant('w1');
    const err = await w1.tenant('w2').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(MockConnectionError);
    expect((err as Error).message).toMatch(/answered 404: (404 )?a tenant has no tenants of its own/);
    expect((await connectMock(mock.url, { adminToken: TOKEN }).tenants()).map((t) => t.name)).toEqual(['w1']);
  });

  it('csp-mock tenant create, list and delete, and the control commands with --url <mock>/t/<name>', async () => {
    const env = { CSP_MOCK_URL: mock.url, CSP_MOCK_ADMIN_TOKEN: TOKEN };
    const cli = (args: string[]) => cliHere(args, { env, cwd: cwd.path });
    const created = await cli(['tenant', 'create', 'w1', '--scenario', 'tag-objects-500']);
    expect(created.stderr).toBe('');
    expect(created.stdout.trim()).toBe(`${mock.url}/t/w1`);
    const listed = await cli(['tenant', 'list', '--json']);
    expect(JSON.parse(listed.stdout)).toMatchObject([
      { name: 'w1', url: `${mock.url}/t/w1`, scenario: 'tag-objects-500' },
    ]);
    const shown = await cli(['scenario', 'show', '--json', '--url', `${mock.url}/t/w1`]);
    expect(JSON.parse(shown.stdout)).toMatchObject({ name: 'tag-objects-500' });
    expect((await cli(['reset', '--url', `${mock.url}/t/w1`])).stdout).toMatch(/^reset .*\/t\/w1/);
    const bad = await cli(['tenant', 'create', 'W1']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^csp-mock: name must be 1 to 40 characters of a-z, 0-9 and -$/m);
    expect((await cli(['tenant', 'delete', 'w1'])).stdout.trim()).toBe('deleted tenant w1');
    expect((await cli(['tenant', 'list'])).stdout.trim()).toBe('no tenants');
  });
});
