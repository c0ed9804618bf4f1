// What a client, a page or another tenant may not do to tenants (../shared/design/hostile-inputs.md).
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock, type StartOptions } from '../../../src/index.js';
import { rawExchange } from '../../helpers/raw-http.js';

const DEMO = { Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}`, 'X-Client-Specification': '2' };
const TOKEN = 'tenant-hostile-token';

let mock: RunningMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function served(options: StartOptions = {}): Promise<RunningMock> {
  mock = await startMock(options);
  return mock;
}

const post = (m: RunningMock, body: unknown) =>
  request(m.url).post('/__admin/tenants').set('Content-Type', 'application/json').send(JSON.stringify(body));

const names = async (m: RunningMock): Promise<string[]> =>
  ((await request(m.url).get('/__admin/tenants').expect(200)).body as { tenants: { name: string }[] }).tenants.map(
    (t) => t.name,
  );

describe('tenant names', () => {
  it.each([
    ['a slash', 'a/b'],
    ['a dot-dot', '..'],
    ['an encoded slash', 'a%2Fb'],
    ['upper case', 'W1'],
    ['41 characters', 'a'.repeat(41)],
    ['the empty name', ''],
    ['a space', 'w 1'],
    ['a non-string', 7],
  ])('a name with %s is refused with 400 and creates nothing', async (_what, name) => {
    const m = await served();
    const res = await post(m, { name }).expect(400);
    expect(res.text).toMatch(/name must be 1 to 40 characters of a-z, 0-9 and -/);
    expect(res.text).not.toContain(String(name === '' ? '\u0000' : name));
    expect(await names(m)).toEqual([]);
  });

  it('a name of 40 characters of a-z, 0-9 and - is taken', async () => {
    const m = await served();
    const name = `a-0${'z'.repeat(37)}`;
    await post(m, { name }).expect(201);
    await request(m.url).get(`/t/${name}/v2`).set(DEMO).expect(200);
  });

  it('DELETE with a bad name is a 400 (upper case, an encoded slash, dot-dot) and deletes nothing', async () => {
    const m = await served();
    await post(m, { name: 'w1' }).expect(201);
    for (const path of ['W1', 'w1%2Fx', '..', 'a'.repeat(41)])
      await request(m.url).delete(`/__admin/tenants/${path}`).expect(400);
    expect(await names(m)).toEqual(['w1']);
  });

  it('a path that is not /t/<live tenant>/ never reaches a tenant or the admin API: dot-dot, encoded slash, upper case', async () => {
    const m = await served();
    await post(m, { name: 'w1' }).expect(201);
    await request(m.url).mkcol('/dav/Kept').set(DEMO).expect(201);
    await request(m.url).mkcol('/t/w1/dav/KeptToo').set(DEMO).expect(201);
    for (const path of [
      '/t/../__admin/reset',
      '/t/w1/../../__admin/reset',
      '/t/w1%2F..%2F..%2F__admin/reset',
      '/T/w1/__admin/reset',
    ])
      expect((await request(m.url).post(path)).status).toBeGreaterThanOrEqual(400);
    await request(m.url).get('/dav/Kept/').set(DEMO).expect(200);
    await request(m.url).get('/t/w1/dav/KeptToo/').set(DEMO).expect(200);
  });
});

describe('tenant limits', () => {
  it('past --max-tenants a create is a 429 that says so, and nothing is created', async () => {
    const m = await served({ tenants: { max: 2 } });
    await post(m, { name: 'w1' }).expect(201);
    await post(m, { name: 'w2' }).expect(201);
    const full = await post(m, { name: 'w3' }).expect(429);
    expect(full.text).toMatch(/the server has its 2 tenants \(--max-tenants 2\)/);
    expect(await names(m)).toEqual(['w1', 'w2']);
    await request(m.url).get('/t/w3/v2').set(DEMO).expect(404);
    // Deleting one makes room.
    await request(m.url).delete('/__admin/tenants/w1').expect(204);
    await post(m, { name: 'w3' }).expect(201);
  });

  it('creates racing past the limit: exactly the limit is made, the rest get 429', async () => {
    const m = await served({ tenants: { max: 3 } });
    const statuses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => post(m, { name: `r${i}` }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    expect(await names(m)).toHaveLength(3);
  });

  it('the same name created twice at once: one 201, one 409', async () => {
    const m = await served();
    const statuses = await Promise.all(
      [post(m, { name: 'w1' }), post(m, { name: 'w1' })].map((r) => r.then((x) => x.status)),
    );
    expect(statuses.sort()).toEqual([201, 409]);
  });

  it('max 0 turns tenants off: a create is a 429 naming the option', async () => {
    const m = await served({ tenants: { max: 0 } });
    expect((await post(m, { name: 'w1' }).expect(429)).text).toMatch(/tenants are turned off \(--max-tenants 0\)/);
  });
});

describe('an admin body is untrusted', () => {
  it.each([
    ['a scenario path', { scenario: '/etc/passwd' }, /is a path; over HTTP a scenario is named/],
    ['a relative scenario path', { scenario: '../scenarios/x.json' }, /is a path; over HTTP a scenario is named/],
    [
      'an inline scenario with a fixture outside ./scenarios',
      { scenario: { name: 'x', seed: { trees: { demo: [{ file: 'p', fixture: '/etc/passwd' }] } } } },
      /fixture/,
    ],
    ['an unknown field', { data: '/tmp/x.json' }, /not "data"/],
    ['a mode', { mode: { kind: 'record', upstream: 'http://x', out: '/tmp/o' } }, /not "mode"/],
    ['a seed that is not demo or empty', { seed: 'huge' }, /seed must be "demo" or "empty"/],
    ['users that are not an object', { users: 'demo:demo' }, /users must be an object/],
    ['a login with a colon', { users: { 'a:b': 'pw' } }, /without ":"/],
    ['a journal too big', { journalSize: 10_000_001 }, /journalSize must be a whole number from 0 to 10000/],
    ['journal bodies too big', { journalBodies: 1 << 30 }, /journalBodies must be a whole number from 0 to 65536/],
    ['a bad clock', { clock: { offset: 'soon' } }, /clock\.offset/],
    ['strict not a boolean', { strict: 'yes' }, /strict must be true or false/],
  ])('%s is a 400 naming the field, and creates nothing', async (_what, extra, message) => {
    const m = await served();
    const res = await post(m, { name: 'w1', ...extra }).expect(400);
    expect(res.text).toMatch(message);
    expect(res.text).not.toMatch(/root:/);
    expect(await names(m)).toEqual([]);
  });

  it('a body that is not a JSON object is a 400; a form body a 415', async () => {
    const m = await served();
    await post(m, ['w1']).expect(400);
    await post(m, null).expect(400);
    await request(m.url).post('/__admin/tenants').set('Content-Type', 'text/plain').send('name=w1').expect(415);
    expect(await names(m)).toEqual([]);
  });
});

describe('a tenant is guarded like the default mock, and cannot reach the others', () => {
  it('an absolute-form request line (as to a proxy) reaches the live tenant it names, not a 404 saying there is none', async () => {
    const m = await served();
    await post(m, { name: 'w1', seed: 'empty' }).expect(201);
    const target = `http://127.0.0.1:${m.port}/t/w1/v2/account`;
    const head =
      `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${m.port}\r\nAuthorization: ${DEMO.Authorization}\r\n` +
      'X-Client-Specification: 2\r\nConnection: close\r\n\r\n';
    const text = (await rawExchange(m.port, [head], 5000)).received.toString('utf8');
    expect(text.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(text).toContain('<account-info');
  });

  it('the Host check applies to tenant paths: a name not ours is 403 on /t/<name>/dav and /t/<name>/__admin', async () => {
    const m = await served();
    await post(m, { name: 'w1' }).expect(201);
    await request(m.url)
      .propfind('/t/w1/dav/')
      .set({ ...DEMO, Depth: '1', Host: 'evil.example' })
      .expect(403);
    await request(m.url).get('/t/w1/__admin/state').set('Host', 'evil.example').expect(403);
    await request(m.url).get('/t/nope/__admin/state').set('Host', 'evil.example').expect(403);
  });

  it('the admin token applies to a tenant admin API and to /__admin/tenants', async () => {
    const m = await served({ adminToken: TOKEN });
    await post(m, { name: 'w1' }).expect(401);
    await post(m, { name: 'w1' }).set('Authorization', `Bearer ${TOKEN}`).expect(201);
    await request(m.url).get('/__admin/tenants').expect(401);
    await request(m.url).get('/t/w1/__admin/requests').expect(401);
    await request(m.url).post('/t/w1/__admin/reset').expect(401);
    await request(m.url).get('/t/w1/__admin/requests').set('X-Admin-Token', TOKEN).expect(200);
    await request(m.url).delete('/__admin/tenants/w1').expect(401);
  });

  it("a page on another origin cannot create, delete or reset tenants (the admin guard's same-origin check)", async () => {
    const m = await served();
    await post(m, { name: 'w1' }).expect(201);
    await request(m.url).mkcol('/t/w1/dav/Kept').set(DEMO).expect(201);
    await post(m, { name: 'w2' }).set('Origin', 'https://evil.example').expect(403);
    await request(m.url).delete('/__admin/tenants/w1').set('Sec-Fetch-Site', 'cross-site').expect(403);
    await request(m.url).post('/t/w1/__admin/reset').set('Origin', 'https://evil.example').expect(403);
    await request(m.url).post('/t/w1/__admin/reset').set('Origin', 'null').expect(403);
    expect(await names(m)).toEqual(['w1']);
    await request(m.url).get('/t/w1/dav/Kept/').set(DEMO).expect(200);
  });

  it("a tenant's WebDAV cannot copy or move into another tenant or the default mock, nor list them by dot-dot", async () => {
    const m = await served();
    await post(m, { name: 'w1' }).expect(201);
    await post(m, { name: 'w2' }).expect(201);
    await request(m.url).mkcol('/t/w1/dav/Mine').set(DEMO).expect(201);
    for (const destination of [`${m.url}/t/w2/dav/Stolen`, `${m.url}/dav/Stolen`, '/t/w2/dav/Stolen', '/dav/Stolen']) {
      const res = await request(m.url)
        .copy('/t/w1/dav/Mine')
        .set({ ...DEMO, Destination: destination });
      expect(res.status).toBeGreaterThanOrEqual(400);
    }
    await request(m.url).get('/t/w2/dav/Stolen/').set(DEMO).expect(404);
    await request(m.url).get('/dav/Stolen/').set(DEMO).expect(404);
    const listing = await request(m.url)
      .propfind('/t/w1/dav/../../t/w2/dav/')
      .set({ ...DEMO, Depth: '1' });
    expect(listing.text).not.toContain('/t/w2/');
  });
});
