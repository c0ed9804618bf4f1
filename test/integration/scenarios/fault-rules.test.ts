import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type MockApp, type ScenarioDefinition } from '../../../src/index.js';

let mock: MockApp | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function appWith(scenario: ScenarioDefinition): Promise<MockApp> {
  mock = await createApp({ seed: 'empty', scenario });
  return mock;
}

/** Status codes of `n` GETs in sequence. */
async function statuses(app: MockApp, path: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await request(app.app).get(path).auth('demo', 'demo')).status);
  return out;
}

const teapot = { status: 418, body: 'fault' };

describe('fault rule counters: times, after, probability with a seed', () => {
  it('after N lets the first N matches through, times M then applies to the next M only', async () => {
    const app = await appWith({
      faults: [{ match: { method: 'GET', path: '/v2/tags' }, after: 2, times: 2, respond: teapot }],
    });
    expect(await statuses(app, '/v2/tags', 6)).toEqual([200, 200, 418, 418, 200, 200]);
  });

  it('"fail the nth call": after 2, times 1 fails exactly the third', async () => {
    const app = await appWith({
      faults: [{ match: { method: 'GET', path: '/v2/account' }, after: 2, times: 1, respond: teapot }],
    });
    expect(await statuses(app, '/v2/account', 5)).toEqual([200, 200, 418, 200, 200]);
  });

  it('probability with a seed gives the same sequence on every run, and a different seed another one', async () => {
    const rule = (seed: number): ScenarioDefinition => ({
      faults: [{ match: { method: 'GET', path: '/v2/tags' }, probability: 0.5, seed, respond: teapot }],
    });
    const first = await statuses(await appWith(rule(42)), '/v2/tags', 24);
    await mock!.close();
    const second = await statuses(await appWith(rule(42)), '/v2/tags', 24);
    await mock!.close();
    const other = await statuses(await appWith(rule(7)), '/v2/tags', 24);
    expect(second).toEqual(first);
    expect(first).toContain(418);
    expect(first).toContain(200);
    expect(other).not.toEqual(first);
  });

  it('reset re-arms the counters and the seeded draws', async () => {
    const app = await appWith({
      faults: [
        { match: { method: 'GET', path: '/v2/tags' }, times: 1, respond: teapot },
        { match: { method: 'GET', path: '/v2/account' }, probability: 0.5, seed: 9, respond: teapot },
      ],
    });
    const before = [...(await statuses(app, '/v2/tags', 2)), ...(await statuses(app, '/v2/account', 12))];
    await app.reset();
    const after = [...(await statuses(app, '/v2/tags', 2)), ...(await statuses(app, '/v2/account', 12))];
    expect(before.slice(0, 2)).toEqual([418, 200]);
    expect(after).toEqual(before);
  });

  it('the first rule that fires wins; a rule whose times are spent lets the next rule answer', async () => {
    const app = await appWith({
      faults: [
        { match: { method: 'GET', path: '/v2/tags' }, times: 1, respond: { status: 503, body: 'first' } },
        { match: { method: 'GET', path: '/v2/**' }, respond: { status: 502, body: 'second' } },
      ],
    });
    expect(await statuses(app, '/v2/tags', 3)).toEqual([503, 502, 502]);
  });
});

describe('fault rule matching: method, path glob, headers, content type, query', () => {
  it('"*" is one path segment, "**" any number (zero included), "*" inside a segment a part of it', async () => {
    const app = await appWith({
      faults: [
        { match: { method: 'GET', path: '/v2/files/*/content' }, respond: { status: 451, body: 'one' } },
        { match: { method: 'GET', path: '/dav/**' }, respond: { status: 452, body: 'any' } },
        { match: { method: 'GET', path: '/v2/containers/abc*' }, respond: { status: 453, body: 'part' } },
      ],
    });
    const status = async (path: string): Promise<number> =>
      (await request(app.app).get(path).auth('demo', 'demo')).status;
    expect(await status('/v2/files/x1/content')).toBe(451);
    expect(await status('/v2/files/x1/y/content')).toBe(404);
    expect(await status('/dav')).toBe(452);
    expect(await status('/dav/a/b/c.txt')).toBe(452);
    expect(await status('/v2/containers/abcdef')).toBe(453);
    expect(await status('/v2/containers/xabc')).toBe(404);
  });

  it('method may be one, a list, or "*"; other methods pass', async () => {
    const app = await appWith({
      faults: [
        { match: { method: ['PUT', 'DELETE'], path: '/v2/files/*' }, respond: { status: 409, body: 'list' } },
        { match: { method: '*', path: '/v2/recyclebin' }, respond: { status: 410, body: 'any' } },
      ],
    });
    expect((await request(app.app).put('/v2/files/a').auth('demo', 'demo')).status).toBe(409);
    expect((await request(app.app).delete('/v2/files/a').auth('demo', 'demo')).status).toBe(409);
    expect((await request(app.app).get('/v2/files/a').auth('demo', 'demo')).status).toBe(404);
    expect((await request(app.app).post('/v2/recyclebin').auth('demo', 'demo')).status).toBe(410);
  });

  it('header conditions: a value must be equal, true means present, false absent', async () => {
    const app = await appWith({
      faults: [
        {
          match: { method: 'GET', path: '/v2', headers: { 'X-Cloud-Depth': '1' } },
          respond: { status: 460, body: 'depth' },
        },
        {
          match: { method: 'GET', path: '/v2', headers: { 'X-Client-Specification': false } },
          respond: { status: 461, body: 'nospec' },
        },
      ],
    });
    const base = () => request(app.app).get('/v2').auth('demo', 'demo');
    expect((await base().set('X-Cloud-Depth', '1').set('X-Client-Specification', '2')).status).toBe(460);
    expect((await base()).status).toBe(461);
    expect((await base().set('X-Client-Specification', '2')).status).toBe(200);
  });

  it('contentType matches the media type without parameters, and "type/*"', async () => {
    const app = await appWith({
      faults: [
        {
          match: { method: 'POST', path: '/v2/containers/*/contents', contentType: 'multipart/*' },
          respond: { status: 507, body: 'full' },
        },
      ],
    });
    const root = (await request(app.app).get('/__admin/state')).body.users.demo.rootId as string;
    const upload = await request(app.app)
      .post(`/v2/containers/${root}/contents`)
      .auth('demo', 'demo')
      .attach('file', Buffer.from('x'), 'x.txt');
    expect(upload.status).toBe(507);
    const create = await request(app.app)
      .post(`/v2/containers/${root}/contents`)
      .auth('demo', 'demo')
      .set('Content-Type', 'application/vnd.csp.container-info+xml; charset=UTF-8')
      .send('<container><name>ok</name></container>');
    expect(create.status).toBe(201);
  });

  it('query conditions: value equality and presence', async () => {
    const app = await appWith({
      faults: [
        {
          match: { method: 'GET', path: '/v2/tags', query: { start: '5', n: true } },
          respond: { status: 470, body: 'query' },
        },
      ],
    });
    const status = async (path: string): Promise<number> =>
      (await request(app.app).get(path).auth('demo', 'demo')).status;
    expect(await status('/v2/tags?start=5&n=123')).toBe(470);
    expect(await status('/v2/tags?start=5')).toBe(200);
    expect(await status('/v2/tags?start=4&n=1')).toBe(200);
  });
});
