import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { createApp, type MockApp, type MockOptions } from '../../../src/index.js';
import type { StateView } from '../../../src/admin/state-view.js';
import type { ScenarioListing } from '../../../src/scenarios/catalog.js';

const CHILD = fileURLToPath(new URL('../../fixtures/scenarios/child.json', import.meta.url));

let mock: MockApp | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});
async function open(options: MockOptions = {}): Promise<MockApp> {
  mock = await createApp(options);
  return mock;
}
const service = (app: MockApp, path: string) =>
  request(app.app).get(path).auth('demo', 'demo').set('X-Client-Specification', '2');

describe('admin API: PUT /__admin/scenario', () => {
  it('switches by name and answers the new scenario', async () => {
    const app = await open();
    const res = await request(app.app).put('/__admin/scenario').send({ name: 'tag-objects-500' }).expect(200);
    expect(res.body).toMatchObject({ name: 'tag-objects-500', faults: 1, seeded: false });
    await service(app, '/v2/tags/important/objects').expect(500);
    expect((await request(app.app).get('/__admin/scenario').expect(200)).body.name).toBe('tag-objects-500');
  });

  it('switches to a scenario file by path from code (useScenario); over HTTP a path is refused', async () => {
    const app = await open();
    const refused = await request(app.app).put('/__admin/scenario').send({ name: CHILD }).expect(400);
    expect(refused.text).toContain('over HTTP a scenario is named');
    await app.useScenario(CHILD);
    await request(app.app).get('/v2/tags').auth('alice', 'wonderland').expect(503);
  });

  it('switches to an inline scenario', async () => {
    const app = await open();
    const inline = {
      name: 'inline-test',
      faults: [{ match: { method: 'GET', path: '/v2/account' }, respond: { status: 429, body: 'slow down' } }],
    };
    await request(app.app).put('/__admin/scenario').send(inline).expect(200);
    const res = await service(app, '/v2/account').expect(429);
    expect(res.text).toBe('slow down');
  });

  it('refuses a malformed scenario with 400 text/plain naming the field, and keeps the active one', async () => {
    const app = await open({ scenario: 'tag-objects-500' });
    const res = await request(app.app)
      .put('/__admin/scenario')
      .send({ faults: [{ match: { method: 'GET', path: '/v2' }, respond: { status: 99 } }] })
      .expect(400);
    expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(res.text).toContain('inline scenario: faults[0].respond.status: must be >= 200');
    const unknown = await request(app.app).put('/__admin/scenario').send({ name: 'no-such' }).expect(400);
    expect(unknown.text).toContain('no scenario named "no-such"');
    expect((await request(app.app).get('/__admin/scenario')).body.name).toBe('tag-objects-500');
  });

  it('a scenario name of 100,000 characters is a short 400 at once: no "did you mean" table, the name cut in the message', async () => {
    const app = await open();
    for (const name of ['a'.repeat(100_000), `${'a'.repeat(100_000)}!`]) {
      const res = await request(app.app).put('/__admin/scenario').send({ name }).expect(400);
      expect(res.text).toContain(`"${'a'.repeat(80)}…" is neither a scenario name nor a path`);
      expect(res.text.length).toBeLessThan(400);
    }
  });

  it('refuses a body that is not a JSON object, and the server keeps serving', async () => {
    const app = await open();
    const res = await request(app.app)
      .put('/__admin/scenario')
      .set('Content-Type', 'application/json')
      .send('{oops')
      .expect(400);
    expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
    await request(app.app).put('/__admin/scenario').send([1, 2]).expect(400);
    await service(app, '/v2').expect(200);
  });
});

describe('admin API: reset, requests, state, scenarios', () => {
  it('POST /__admin/reset puts the state back to the seed and clears the journal', async () => {
    const app = await open({ scenario: 'empty' });
    const root = (await request(app.app).get('/__admin/state')).body.users.demo.rootId as string;
    await request(app.app)
      .post(`/v2/containers/${root}/contents`)
      .auth('demo', 'demo')
      .set('Content-Type', 'application/vnd.csp.container-info+xml')
      .send('<container><name>made</name></container>')
      .expect(201);
    expect((await request(app.app).get('/__admin/state')).body.users.demo.tree).toHaveLength(1);
    expect((await request(app.app).get('/__admin/requests')).body.requests).toHaveLength(1);
    await request(app.app).post('/__admin/reset').expect(204);
    expect((await request(app.app).get('/__admin/state')).body.users.demo.tree).toEqual([]);
    expect((await request(app.app).get('/__admin/requests')).body.requests).toEqual([]);
  });

  it('GET /__admin/requests lists service requests only, credentials removed', async () => {
    const app = await open();
    await service(app, '/v2/account?authkey=k1').set('Cookie', 'session=abc');
    await request(app.app).get('/__admin/state');
    const { requests } = (await request(app.app).get('/__admin/requests').expect(200)).body;
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      method: 'GET',
      path: '/v2/account',
      status: 200,
      outcome: 'answered',
      user: 'demo',
      scenario: 'default',
      query: { authkey: '[removed]' },
    });
    expect(requests[0].headers.authorization).toBe('[removed]');
    expect(requests[0].headers.cookie).toBe('[removed]');
    expect(JSON.stringify(requests)).not.toMatch(/ZGVtbzpkZW1v|session=abc|k1/);
    await request(app.app).delete('/__admin/requests').expect(204);
    expect((await request(app.app).get('/__admin/requests')).body.requests).toEqual([]);
  });

  it('GET /__admin/state shows every user tree in the seed format with ids', async () => {
    const app = await open();
    const body = (await request(app.app).get('/__admin/state').expect(200)).body as StateView;
    expect(body.scenario).toBe('default');
    const documents = body.users.demo!.tree.find((n) => 'container' in n && n.container === 'Documents');
    const readme = (documents && 'children' in documents ? documents.children : []).find(
      (n) => 'file' in n && n.file === 'readme.txt',
    );
    expect(readme).toMatchObject({ mimeType: 'text/plain', tags: ['important'], metadata: { author: 'demo' } });
    expect(readme!.id).toEqual(expect.any(String));
    await service(app, `/v2/files/${readme!.id}`).expect(200);
  });

  it('GET /__admin/scenarios lists the built-in scenarios with descriptions', async () => {
    const app = await open();
    const { scenarios } = (await request(app.app).get('/__admin/scenarios').expect(200)).body as {
      scenarios: ScenarioListing[];
    };
    const names = scenarios.map((s) => s.name);
    for (const name of [
      'default',
      'tag-objects-500',
      'observed',
      'empty',
      'slow-network',
      'flaky-uploads',
      'quota-exceeded',
      'expired-credentials',
    ]) {
      expect(names).toContain(name);
    }
    expect(scenarios.every((s) => s.description.length > 0)).toBe(true);
  });

  it('unknown admin paths are 404 text/plain', async () => {
    const app = await open();
    const res = await request(app.app).get('/__admin/nothing').expect(404);
    expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
  });
});

describe('admin API token', () => {
  it('with adminToken, /__admin needs Authorization: Bearer or X-Admin-Token; the service auth is unchanged', async () => {
    const app = await open({ adminToken: 's3cret' });
    const denied = await request(app.app).get('/__admin/scenario').expect(401);
    expect(denied.headers['www-authenticate']).toMatch(/^Bearer/);
    await request(app.app).get('/__admin/scenario').set('Authorization', 'Bearer wrong').expect(401);
    await request(app.app).get('/__admin/scenario').set('Authorization', 'Bearer s3cret').expect(200);
    await request(app.app).post('/__admin/reset').set('X-Admin-Token', 's3cret').expect(204);
    await service(app, '/v2').expect(200);
  });

  it('without a token the admin API is open and not behind the service auth', async () => {
    const app = await open({ scenario: 'expired-credentials' });
    await request(app.app).get('/__admin/state').expect(200);
    await service(app, '/v2').expect(401);
  });
});
