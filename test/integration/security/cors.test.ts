// CORS: which pages a browser lets call the service, and what every answer to them carries.
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type MockApp, type MockOptions } from '../../../src/index.js';
import { CORS_METHODS, EXPOSED_HEADERS, PREFLIGHT_MAX_AGE_SECONDS } from '../../../src/http/cors.js';
import { DAV_METHODS } from '../../../src/dav/index.js';
import { BASIC_DEMO } from '../../helpers/cli.js';
import { listenOnLoopback } from '../../helpers/raw-http.js';

const VITE = 'http://localhost:5173';
const SERVICE = { Authorization: BASIC_DEMO, 'X-Client-Specification': '2' };

let mock: MockApp | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function open(options: MockOptions = {}): Promise<MockApp> {
  mock = await createApp({ log: () => undefined, ...options });
  return mock;
}

function preflight(app: MockApp, path: string, origin: string, method = 'GET', headers?: string) {
  const req = request(app.app).options(path).set('Origin', origin).set('Access-Control-Request-Method', method);
  return headers === undefined ? req : req.set('Access-Control-Request-Headers', headers);
}

describe('which origins may call the service', () => {
  it.each([
    'http://localhost:5173',
    'https://localhost',
    'http://127.0.0.1:3000',
    'http://[::1]:8081',
    'http://app.localhost:5173',
    'https://a.b.localhost:4443',
  ])('a loopback page (%s) is allowed by default', async (origin) => {
    const app = await open();
    const res = await request(app.app).get('/v2').set(SERVICE).set('Origin', origin).expect(200);
    expect(res.headers['access-control-allow-origin']).toBe(origin);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers['vary']).toMatch(/\bOrigin\b/);
  });

  it.each(['https://app.example.test', 'http://localhost.example.test', 'http://127.0.0.2', 'http://evil.test'])(
    'a foreign page (%s) is refused with 403 before authentication, naming --cors-origin',
    async (origin) => {
      const app = await open();
      const res = await request(app.app).get('/v2').set(SERVICE).set('Origin', origin).expect(403);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.text).toContain(`--cors-origin ${origin}`);
      expect(app.requests()).toEqual([]);
    },
  );

  it('Origin: null (a sandboxed page or a file) gets nothing: 403, no CORS header, on a preflight too', async () => {
    const app = await open({ corsOrigins: ['*'] });
    const res = await request(app.app).get('/v2').set(SERVICE).set('Origin', 'null').expect(403);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.text).toContain('Origin: null');
    const pre = await preflight(app, '/v2', 'null').expect(403);
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('--cors-origin (corsOrigins) lets exactly the named origin in, normalised as a browser sends it', async () => {
    const app = await open({ corsOrigins: ['https://App.Example.test:443/'] });
    const ok = await request(app.app).get('/v2').set(SERVICE).set('Origin', 'https://app.example.test').expect(200);
    expect(ok.headers['access-control-allow-origin']).toBe('https://app.example.test');
    for (const other of ['http://app.example.test', 'https://app.example.test:8443', 'https://x.app.example.test'])
      await request(app.app).get('/v2').set(SERVICE).set('Origin', other).expect(403);
  });

  it('"*" allows any origin, echoing it (credentials forbid a literal *)', async () => {
    const app = await open({ corsOrigins: ['*'] });
    const res = await request(app.app).get('/v2').set(SERVICE).set('Origin', 'https://anything.example').expect(200);
    expect(res.headers['access-control-allow-origin']).toBe('https://anything.example');
  });

  it('cors: false (--no-cors) turns it off: no header, no refusal, a preflight goes to authentication', async () => {
    const app = await open({ cors: false });
    const res = await request(app.app).get('/v2').set(SERVICE).set('Origin', 'https://app.example.test').expect(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    await preflight(app, '/v2', VITE).expect(401);
  });

  it("a page on the mock's own origin (its Host, or --public-url's) passes without CORS headers", async () => {
    const app = await open({ publicUrl: 'https://cloud.example.test' });
    const own = await request(app.app)
      .get('/v2')
      .set(SERVICE)
      .set('Host', 'cloud.example.test')
      .set('Origin', 'https://cloud.example.test')
      .expect(200);
    expect(own.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('a malformed corsOrigins entry names the field and the value; nothing starts', async () => {
    for (const bad of [
      'app.example.test',
      'https://app.example.test/path',
      'null',
      'ftp://x.test',
      'https://u:p@x.test',
    ])
      await expect(createApp({ corsOrigins: [bad] })).rejects.toThrow(
        `corsOrigins ${JSON.stringify(bad)} is not an origin`,
      );
  });
});

describe('the preflight', () => {
  it('is answered 204 before authentication with every method, the requested headers, credentials, Max-Age and Vary', async () => {
    const app = await open();
    const res = await preflight(
      app,
      '/v2/containers/x/contents',
      VITE,
      'POST',
      'authorization,x-client-specification,content-type',
    ).expect(204);
    expect(res.headers['access-control-allow-origin']).toBe(VITE);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers['access-control-allow-methods']).toBe(CORS_METHODS.join(', '));
    expect(res.headers['access-control-allow-headers']).toBe('authorization, x-client-specification, content-type');
    expect(res.headers['access-control-max-age']).toBe(String(PREFLIGHT_MAX_AGE_SECONDS));
    expect(res.headers['vary']).toBe('Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
    expect(res.headers['www-authenticate']).toBeUndefined();
  });

  it('allows every WebDAV method the mock serves', () => {
    expect(DAV_METHODS.filter((m) => !(CORS_METHODS as readonly string[]).includes(m))).toEqual([]);
  });

  it('is answered on /dav and /cdmi too, and not journaled', async () => {
    const app = await open();
    await preflight(app, '/dav/Documents/', VITE, 'PROPFIND', 'depth,authorization').expect(204);
    await preflight(app, '/cdmi/cdmi_capabilities/', VITE).expect(204);
    expect(app.requests()).toEqual([]);
  });

  it("an OPTIONS without Access-Control-Request-Method is WebDAV's OPTIONS, authenticated as before", async () => {
    const app = await open();
    await request(app.app).options('/dav/').set('Origin', VITE).expect(401);
    const res = await request(app.app)
      .options('/dav/')
      .set('Origin', VITE)
      .set('Authorization', BASIC_DEMO)
      .expect(200);
    expect(res.headers['dav']).toBeDefined();
    expect(res.headers['access-control-allow-origin']).toBe(VITE);
  });

  it('requested headers that are not header names, or past 2048 characters, are a 400 without CORS headers', async () => {
    const app = await open();
    for (const bad of ['x-a, x b', 'x-a,<script>', 'x\u00e9', `${'x-long,'.repeat(300)}x`]) {
      const res = await preflight(app, '/v2', VITE, 'GET', bad).expect(400);
      expect(res.text).toContain('Access-Control-Request-Headers');
      expect(res.headers['access-control-allow-headers']).toBeUndefined();
    }
    const method = await preflight(app, '/v2', VITE, 'GE T').expect(400);
    expect(method.text).toContain('Access-Control-Request-Method');
  });

  it('a preflight flood does not grow the journal', async () => {
    const app = await open({ journalSize: 50 });
    await request(app.app).get('/v2').set(SERVICE).expect(200);
    const server = await listenOnLoopback(app.app);
    try {
      const send = (i: number) =>
        fetch(`http://127.0.0.1:${server.port}/v2/files/${i}`, {
          method: 'OPTIONS',
          headers: {
            Origin: VITE,
            'Access-Control-Request-Method': 'PUT',
            'Access-Control-Request-Headers': 'authorization',
          },
        }).then(async (res) => [res.status, await res.text()] as const);
      for (let batch = 0; batch < 50; batch += 1) {
        const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => send(batch * 20 + i)));
        expect(answers.every(([status]) => status === 204)).toBe(true);
      }
    } finally {
      await server.close();
    }
    expect(app.requests().map((e) => `${e.method} ${e.path}`)).toEqual(['GET /v2']);
  });

  it('a listed public page gets Private Network Access allowed on its preflight', async () => {
    const app = await open({ corsOrigins: ['https://app.example.test'] });
    const res = await preflight(app, '/v2', 'https://app.example.test')
      .set('Access-Control-Request-Private-Network', 'true')
      .expect(204);
    expect(res.headers['access-control-allow-private-network']).toBe('true');
  });
});

describe('every answer to an allowed page carries the CORS headers', () => {
  const exposed = (value: string | undefined): string[] => (value ?? '').split(', ');

  it('emulator answers expose Location and ETag; 401, 404 and 400 carry the headers too', async () => {
    const app = await open();
    const root = app.store.root('demo');
    const created = await request(app.app)
      .post(`/v2/containers/${root.id}/contents`)
      .set(SERVICE)
      .set('Origin', VITE)
      .set('Content-Type', 'application/vnd.csp.container-info+xml')
      .send('<container><name>From a page</name></container>')
      .expect(201);
    expect(created.headers['location']).toBeDefined();
    expect(exposed(created.headers['access-control-expose-headers'])).toEqual(EXPOSED_HEADERS);
    for (const name of [
      'Location',
      'ETag',
      'Last-Modified',
      'Content-Range',
      'Retry-After',
      'DAV',
      'Lock-Token',
      'WWW-Authenticate',
    ])
      expect(EXPOSED_HEADERS).toContain(name);
    const wrong = await request(app.app)
      .get('/v2')
      .set('Authorization', `Basic ${Buffer.from('demo:wrong').toString('base64')}`)
      .set('Origin', VITE)
      .expect(401);
    expect(wrong.headers['access-control-allow-origin']).toBe(VITE);
    const missing = await request(app.app).get('/v2/files/nothing').set(SERVICE).set('Origin', VITE).expect(404);
    expect(missing.headers['access-control-allow-origin']).toBe(VITE);
  });

  it('the admin API never answers another origin: no CORS header on /__admin, its preflight gets none either', async () => {
    const app = await open();
    const state = await request(app.app).get('/__admin/scenario').set('Origin', VITE);
    expect(state.headers['access-control-allow-origin']).toBeUndefined();
    const pre = await preflight(app, '/__admin/reset', VITE, 'POST', 'content-type');
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    await request(app.app)
      .post('/__admin/reset')
      .set('Origin', VITE)
      .set('Content-Type', 'application/json')
      .send('{}')
      .expect(403);
  });

  it('a Host that is not ours is refused before CORS (DNS rebinding stays closed)', async () => {
    const app = await open({ corsOrigins: ['*'] });
    const res = await request(app.app)
      .get('/v2')
      .set(SERVICE)
      .set('Host', 'rebind.evil.test')
      .set('Origin', 'http://rebind.evil.test')
      .expect(403);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    await preflight(app, '/v2', VITE).set('Host', 'rebind.evil.test').expect(403);
  });

  it('tenant paths (/t/<name>/v2...) are service paths; a path that only looks like one is not', async () => {
    const app = await open();
    const tenant = await request(app.app).get('/t/w1/v2').set('Origin', VITE);
    expect(tenant.headers['access-control-allow-origin']).toBe(VITE);
    const other = await request(app.app).get('/v2x').set('Origin', 'https://evil.test');
    expect(other.status).toBe(404);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});
