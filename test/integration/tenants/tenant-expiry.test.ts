// Idle tenants close; a deleted or expired tenant releases its store and temp blob folder. Time is moved, never waited for.
import { existsSync } from 'node:fs';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, startMock, type RunningMock } from '../../../src/index.js';
import { TenantRegistry } from '../../../src/tenants/tenant-registry.js';

const DEMO = { Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}`, 'X-Client-Specification': '2' };
const MINUTE = 60_000;

let mock: RunningMock | undefined;
let registry: TenantRegistry | undefined;
afterEach(async () => {
  await mock?.close();
  await registry?.close();
  mock = undefined;
  registry = undefined;
});

const names = async (m: RunningMock): Promise<string[]> =>
  ((await request(m.url).get('/__admin/tenants').expect(200)).body as { tenants: { name: string }[] }).tenants.map(
    (t) => t.name,
  );

describe('idle tenants close', () => {
  it('a tenant nothing reached for --tenant-idle is closed; one used meanwhile stays; its path then says why', async () => {
    let now = Date.UTC(2030, 0, 1);
    mock = await startMock({ tenants: { idle: '30m', now: () => now } });
    const post = (name: string) =>
      request(mock!.url).post('/__admin/tenants').set('Content-Type', 'application/json').send({ name }).expect(201);
    const made = await post('w1');
    expect(made.body).toMatchObject({ expires: '2030-01-01T00:30:00.000Z' });
    await post('w2');
    now += 20 * MINUTE;
    await request(mock.url).get('/t/w2/v2').set(DEMO).expect(200);
    now += 10 * MINUTE;
    expect(await names(mock)).toEqual(['w1', 'w2']);
    now += 1 * MINUTE;
    expect(await names(mock)).toEqual(['w2']);
    const gone = await request(mock.url).get('/t/w1/v2').set(DEMO).expect(404);
    expect(gone.text).toMatch(/no tenant "w1" on this server: .* nothing reaches for 30m is closed/);
    // The name is free again.
    await post('w1');
  });

  it('a request still in flight keeps its tenant open past the idle time', async () => {
    let now = Date.UTC(2030, 0, 1);
    mock = await startMock({ tenants: { idle: '30m', now: () => now } });
    await request(mock.url)
      .post('/__admin/tenants')
      .set('Content-Type', 'application/json')
      .send({ name: 'w1' })
      .expect(201);
    const stream = new AbortController();
    // The inspector's event stream stays open: its headers arriving means the server holds the request.
    const events = await fetch(`${mock.url}/t/w1/__admin/inspector/events`, { signal: stream.signal });
    expect(events.status).toBe(200);
    now += 60 * MINUTE;
    expect(await names(mock)).toEqual(['w1']);
    stream.abort();
  });

  it('an idle limit of 0 never closes a tenant', async () => {
    let now = Date.UTC(2030, 0, 1);
    mock = await startMock({ tenants: { idle: 0, now: () => now } });
    const made = await request(mock.url)
      .post('/__admin/tenants')
      .set('Content-Type', 'application/json')
      .send({ name: 'w1' })
      .expect(201);
    expect(made.body.expires).toBeNull();
    now += 365 * 24 * 60 * MINUTE;
    expect(await names(mock)).toEqual(['w1']);
  });
});

describe('closing a tenant releases what it holds', () => {
  /** A tenant with a file too big to be held in memory, so its store made its temp blob folder. */
  async function tenantWithBlobFolder(r: TenantRegistry, name: string): Promise<string> {
    await r.create({ name }, 'http://127.0.0.1');
    const tenant = r.mockOf(name)!;
    await request(tenant.app)
      .put(`/t/${name}/dav/big.bin`)
      .set({ ...DEMO, Host: '127.0.0.1' })
      .send(Buffer.alloc(256 * 1024, 7))
      .expect(201);
    const folder = tenant.store.blobs.dir;
    expect(existsSync(folder)).toBe(true);
    return folder;
  }

  it('DELETE closes the tenant: its temp blob folder is removed', async () => {
    registry = new TenantRegistry({}, { max: 4, idleMs: 30 * MINUTE, log: () => undefined }, createApp);
    const folder = await tenantWithBlobFolder(registry, 'w1');
    await registry.delete('w1');
    expect(existsSync(folder)).toBe(false);
    expect(registry.mockOf('w1')).toBeUndefined();
  });

  it('expiry closes the tenant: its temp blob folder is removed when the sweep ends', async () => {
    let now = 0;
    registry = new TenantRegistry({}, { max: 4, idleMs: 30 * MINUTE, now: () => now, log: () => undefined }, createApp);
    const folder = await tenantWithBlobFolder(registry, 'w1');
    now += 31 * MINUTE;
    await registry.sweep();
    expect(existsSync(folder)).toBe(false);
  });

  it('closing the registry (the server closing) closes every tenant and refuses new ones', async () => {
    registry = new TenantRegistry({}, { max: 4, idleMs: 30 * MINUTE, log: () => undefined }, createApp);
    const folders = [await tenantWithBlobFolder(registry, 'w1'), await tenantWithBlobFolder(registry, 'w2')];
    await registry.close();
    for (const folder of folders) expect(existsSync(folder)).toBe(false);
    await expect(registry.create({ name: 'w3' }, 'http://127.0.0.1')).rejects.toThrow(/the server is closing/);
  });
});
