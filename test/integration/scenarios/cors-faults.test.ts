// Faults seen by a page: their answers carry the CORS headers, a rule can drop them, and a rule naming OPTIONS meets preflights.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, startMock, type MockApp, type RunningMock, type ScenarioDefinition } from '../../../src/index.js';
import { BASIC_DEMO } from '../../helpers/cli.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const PAGE = 'http://localhost:5173';
const SERVICE = { Authorization: BASIC_DEMO, 'X-Client-Specification': '2', Origin: PAGE };

let app: MockApp | undefined;
const running: RunningMock[] = [];
let upstream: Server | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  for (const mock of running.splice(0)) await mock.close();
  await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
  upstream = undefined;
});
const tmp = useTempDir('cors-faults');

async function open(scenario: string | ScenarioDefinition = 'default'): Promise<MockApp> {
  app = await createApp({ log: () => undefined, scenario });
  return app;
}

const preflight = (mock: MockApp, path: string, method = 'GET') =>
  request(mock.app)
    .options(path)
    .set('Origin', PAGE)
    .set('Access-Control-Request-Method', method)
    .set('Access-Control-Request-Headers', 'authorization,x-client-specification');

describe('fault answers and CORS', () => {
  it('the tag-objects-500 fault answer reaches the page as a 500 with the CORS headers', async () => {
    const mock = await open('tag-objects-500');
    const res = await request(mock.app).get('/v2/tags/important/objects').set(SERVICE).expect(500);
    expect(res.headers['access-control-allow-origin']).toBe(PAGE);
    expect(res.headers['access-control-expose-headers']).toContain('Retry-After');
    expect(res.text).toBe('500 Internal Server Error\n');
  });

  it('a rule with cors "drop" sends the answer without any Access-Control-* header (a misconfigured deployment)', async () => {
    const mock = await open({
      name: 'no-cors-on-tags',
      faults: [{ name: 'drop', match: { method: 'GET', path: '/v2/tags' }, cors: 'drop' }],
    });
    const dropped = await request(mock.app).get('/v2/tags').set(SERVICE).expect(200);
    expect(Object.keys(dropped.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    const other = await request(mock.app).get('/v2').set(SERVICE).expect(200);
    expect(other.headers['access-control-allow-origin']).toBe(PAGE);
    expect(mock.requests({ path: '/v2/tags' })[0]?.fault).toBe('drop');
  });

  it('cors "drop" goes with respond; with connection "reset", or another value, the scenario is refused naming the field', async () => {
    const mock = await open({
      name: 'drop-500',
      faults: [{ match: { method: 'GET', path: '/v2' }, respond: { status: 503 }, cors: 'drop' }],
    });
    const res = await request(mock.app).get('/v2').set(SERVICE).expect(503);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    await expect(
      mock.useScenario({
        name: 'x',
        faults: [{ match: { method: '*', path: '/**' }, cors: 'drop', connection: 'reset' }],
      }),
    ).rejects.toThrow(/faults\[0\]\.cors/);
    await expect(
      mock.useScenario({
        name: 'y',
        faults: [{ match: { method: '*', path: '/**' }, cors: 'wildcard' as 'drop' }],
      }),
    ).rejects.toThrow(/cors/);
  });

  it('a "*" rule does not meet preflights: under expired-credentials the preflight passes and the GET is a 401 the page can read', async () => {
    const mock = await open('expired-credentials');
    await preflight(mock, '/v2').expect(204);
    const res = await request(mock.app).get('/v2').set(SERVICE).expect(401);
    expect(res.headers['access-control-allow-origin']).toBe(PAGE);
    expect(res.headers['www-authenticate']).toMatch(/^Basic/);
  });

  it('a rule that names OPTIONS meets the preflight (journaled), and only such rules do', async () => {
    const mock = await open({
      name: 'preflight-faults',
      faults: [
        { name: 'everything', match: { method: '*', path: '/v2/account' }, respond: { status: 500 } },
        { name: 'preflight-503', match: { method: 'OPTIONS', path: '/v2/tags' }, respond: { status: 503 } },
        { name: 'preflight-no-cors', match: { method: ['OPTIONS', 'GET'], path: '/v2/files/*' }, cors: 'drop' },
      ],
    });
    await preflight(mock, '/v2/tags').expect(503);
    const dropped = await preflight(mock, '/v2/files/abc').expect(204);
    expect(dropped.headers['access-control-allow-origin']).toBeUndefined();
    expect(dropped.headers['access-control-allow-methods']).toBeUndefined();
    const passed = await preflight(mock, '/v2/account').expect(204);
    expect(passed.headers['access-control-allow-origin']).toBe(PAGE);
    expect(mock.requests().map((e) => [e.method, e.path, e.status, e.fault])).toEqual([
      ['OPTIONS', '/v2/tags', 503, 'preflight-503'],
      ['OPTIONS', '/v2/files/abc', 204, 'preflight-no-cors'],
      ['OPTIONS', '/v2/account', 204, null],
    ]);
  });

  it('a fault that resets the connection stays a network error: no answer at all', async () => {
    const mock = await startMock({
      log: () => undefined,
      scenario: { name: 'reset', faults: [{ match: { method: 'GET', path: '/v2' }, connection: 'reset' }] },
    });
    running.push(mock);
    await expect(fetch(`${mock.url}/v2`, { headers: SERVICE })).rejects.toThrow();
  });
});

describe("replayed and proxied answers carry our CORS headers, never the upstream's", () => {
  async function foreignUpstream(): Promise<string> {
    upstream = createServer((_req, res) => {
      res.writeHead(200, {
        'Content-Type': 'text/plain',
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Methods': 'GET',
        Vary: 'Accept-Encoding',
      });
      res.end('from upstream');
    });
    await new Promise<void>((resolve) => upstream!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  }

  const expectOurs = (res: Response): void => {
    expect(res.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(res.headers.get('access-control-allow-methods')).toBeNull();
    expect(res.headers.get('vary')).toBe('Origin, Accept-Encoding');
  };

  it('recorded, replayed and proxied on a replay miss', async () => {
    const base = await foreignUpstream();
    const out = join(tmp.path, 'cors.jsonl');
    const recorder = await startMock({ log: () => undefined, mode: { kind: 'record', upstream: base, out } });
    running.push(recorder);
    const recorded = await fetch(`${recorder.url}/v2/account`, { headers: SERVICE });
    expect(await recorded.text()).toBe('from upstream');
    expectOurs(recorded);
    await recorder.close();
    running.splice(0);

    const replayer = await startMock({
      log: () => undefined,
      mode: { kind: 'replay', recording: out, onMiss: 'proxy', upstream: base },
    });
    running.push(replayer);
    const replayed = await fetch(`${replayer.url}/v2/account`, { headers: SERVICE });
    expect(await replayed.text()).toBe('from upstream');
    expectOurs(replayed);
    const proxied = await fetch(`${replayer.url}/v2/tags`, { headers: SERVICE });
    expect(await proxied.text()).toBe('from upstream');
    expectOurs(proxied);
  });
});
