import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';

const DEMO = { Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}`, 'X-Client-Specification': '2' };

let mock: RunningMock;

beforeEach(async () => {
  mock = await startMock();
});
afterEach(async () => {
  await mock.close();
});

const http = () => request(mock.url);

function createTenant(body: Record<string, unknown>) {
  return http().post('/__admin/tenants').set('Content-Type', 'application/json').send(body);
}

/** Makes a folder at the root of demo's tree under `base` ("" or "/t/w1"), by WebDAV. */
async function mkcol(base: string, name: string): Promise<number> {
  return (await http().mkcol(`${base}/dav/${name}`).set(DEMO)).status;
}

async function davNames(base: string): Promise<string[]> {
  const res = await http()
    .propfind(`${base}/dav/`)
    .set({ ...DEMO, Depth: '1' })
    .expect(207);
  return [...res.text.matchAll(/<D:href>([^<]*)<\/D:href>/gi)].map((m) => m[1]!);
}

describe('tenants: each is a whole mock under /t/<name>', () => {
  it('POST /__admin/tenants answers 201 with the url, Location and the tenant serves REST, WebDAV and its own admin API', async () => {
    const res = await createTenant({ name: 'w1' }).expect(201);
    expect(res.body).toMatchObject({ name: 'w1', url: `${mock.url}/t/w1`, scenario: 'default' });
    expect(res.headers['location']).toBe(`${mock.url}/t/w1`);
    await http().get('/t/w1/v2').set(DEMO).expect(200);
    await http()
      .get('/t/w1/__admin/scenario')
      .expect(200, /"name":"default"/);
  });

  it("a tenant's state, journal and reset are its own: the default mock and another tenant see none of it", async () => {
    await createTenant({ name: 'w1' }).expect(201);
    await createTenant({ name: 'w2' }).expect(201);
    expect(await mkcol('/t/w1', 'OnlyInW1')).toBe(201);
    expect(await mkcol('', 'OnlyInDefault')).toBe(201);
    const w1 = await davNames('/t/w1');
    expect(w1).toContain('/t/w1/dav/OnlyInW1/');
    expect(w1.join(' ')).not.toContain('OnlyInDefault');
    expect((await davNames('/t/w2')).join(' ')).not.toMatch(/OnlyIn/);
    expect((await davNames('')).join(' ')).not.toContain('OnlyInW1');

    // Journals: each holds its own requests, with the tenant's own paths.
    const w1Journal = (await http().get('/t/w1/__admin/requests').expect(200)).body as { requests: { path: string }[] };
    expect(w1Journal.requests.map((r) => r.path)).toEqual(['/dav/OnlyInW1', '/dav/']);
    const w2Journal = (await http().get('/t/w2/__admin/requests').expect(200)).body as { requests: unknown[] };
    expect(w2Journal.requests.map((r) => (r as { path: string }).path)).toEqual(['/dav/']);
    const own = await mock.requests();
    expect(own.map((r) => r.path)).toEqual(['/dav/OnlyInDefault', '/dav/']);

    // A tenant's reset puts back its own seed only.
    await http().post('/t/w1/__admin/reset').expect(204);
    expect((await davNames('/t/w1')).join(' ')).not.toContain('OnlyInW1');
    expect((await davNames('')).join(' ')).toContain('OnlyInDefault');
    expect((await http().get('/t/w2/__admin/requests').expect(200)).body.requests).toHaveLength(1);
  });

  it("a tenant's scenario and fault counters are its own", async () => {
    await createTenant({ name: 'w1', scenario: 'tag-objects-500' }).expect(201);
    await createTenant({ name: 'w2' }).expect(201);
    await http().get('/t/w1/v2/tags/x/objects').set(DEMO).expect(500);
    await http().get('/t/w2/v2/tags/x/objects').set(DEMO).expect(404);
    await http().get('/v2/tags/x/objects').set(DEMO).expect(404);
    await http()
      .put('/t/w2/__admin/scenario')
      .set('Content-Type', 'application/json')
      .send({ name: 'default' })
      .expect(200);
    expect(mock.scenario.name).toBe('default');
    expect((await http().get('/t/w1/__admin/scenario').expect(200)).body.name).toBe('tag-objects-500');
  });

  it("a tenant's clock is its own: advancing it moves neither the default mock's nor another tenant's", async () => {
    await createTenant({ name: 'w1', clock: { frozen: '2030-01-01T00:00:00Z' } }).expect(201);
    await createTenant({ name: 'w2' }).expect(201);
    await http()
      .post('/t/w1/__admin/clock')
      .set('Content-Type', 'application/json')
      .send({ advance: '2d' })
      .expect(200);
    const w1 = await http().get('/t/w1/v2').set(DEMO).expect(200);
    expect(w1.headers['date']).toBe('Thu, 03 Jan 2030 00:00:00 GMT');
    const year = new Date().getUTCFullYear();
    expect(new Date((await http().get('/t/w2/v2').set(DEMO)).headers['date']!).getUTCFullYear()).toBe(year);
    expect(new Date((await http().get('/v2').set(DEMO)).headers['date']!).getUTCFullYear()).toBe(year);
  });

  it("links in a tenant's answers carry /t/<name>: XML xlink:href, Location, DAV hrefs, the CDMI and namespace addresses", async () => {
    await createTenant({ name: 'w1' }).expect(201);
    const entry = await http()
      .get('/t/w1/v2')
      .set({ ...DEMO, Accept: 'application/vnd.csp.cloud2+xml', 'X-Cloud-Depth': '1' })
      .expect(200);
    const hrefs = [...entry.text.matchAll(/xlink:href="([^"]*)"/g)].map((m) => m[1]!);
    expect(hrefs.length).toBeGreaterThan(5);
    for (const href of hrefs) expect(href.startsWith(`${mock.url}/t/w1/`)).toBe(true);
    expect(hrefs).toContain(`${mock.url}/t/w1/cdmi/demo`);
    expect(hrefs).toContain(`${mock.url}/t/w1/v2/namespace`);
    const root = /<rootContainer xlink:href="([^"]*)"/.exec(entry.text)![1]!;
    const created = await http()
      .post(`${new URL(root).pathname}/contents`)
      .set({ ...DEMO, 'Content-Type': 'application/vnd.csp.container-info+xml' })
      .send('<container><name>Made</name></container>')
      .expect(201);
    expect(created.text.trim().startsWith(`${mock.url}/t/w1/v2/containers/`)).toBe(true);
    await http().get(`/t/w1/v2/namespace/Made`).set(DEMO).expect(200);
    const moved = await http()
      .move('/t/w1/dav/Made')
      .set({ ...DEMO, Destination: `${mock.url}/t/w1/dav/Renamed` })
      .expect(201);
    expect(moved.status).toBe(201);
    expect(await davNames('/t/w1')).toContain('/t/w1/dav/Renamed/');
    const queue = await http()
      .put('/t/w1/cdmi/demo/laptop-demo')
      .set({ ...DEMO, 'Content-Type': 'application/cdmi-queue', 'X-CDMI-Specification-Version': '1.0.1' })
      .send(
        JSON.stringify({
          metadata: {
            cdmi_queue_type: 'cdmi_notification_queue',
            cdmi_notification_events: ['cdmi_create_complete'],
            cdmi_scope_specification: [{ parentURI: 'starts /cdmi/demo' }],
          },
        }),
      )
      .expect(201);
    expect(queue.headers['location']).toBe('/t/w1/cdmi/demo/laptop-demo');
  });

  it("a tenant's inspector page loads under its own page policy, and what it serves is sandboxed like the default mock's", async () => {
    await createTenant({ name: 'w1' }).expect(201);
    const page = await http().get('/t/w1/__admin/').expect(200);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(page.headers['content-security-policy']).not.toMatch(/(^|, )sandbox/);
    await http().put('/t/w1/dav/page.html').set(DEMO).set('Content-Type', 'text/html').send('<script>1</script>');
    const served = await http().get('/t/w1/dav/page.html').set(DEMO).expect(200);
    expect(served.headers['content-security-policy']).toBe('sandbox');
  });

  it('deleting a tenant closes it: its paths answer 404 naming it, and the default mock is untouched', async () => {
    await createTenant({ name: 'w1' }).expect(201);
    await http().delete('/__admin/tenants/w1').expect(204);
    const gone = await http().get('/t/w1/v2').set(DEMO).expect(404);
    expect(gone.text).toMatch(/no tenant "w1"/);
    await http().get('/t/w1/__admin/requests').expect(404);
    expect((await http().get('/__admin/tenants').expect(200)).body).toEqual({ tenants: [] });
    await http().delete('/__admin/tenants/w1').expect(404);
    await http().get('/v2').set(DEMO).expect(200);
  });
});
