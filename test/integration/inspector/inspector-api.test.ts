import request from 'supertest';
import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, startMock, type MockApp, type MockOptions, type RunningMock } from '../../../src/index.js';

let mock: MockApp | undefined;
let running: RunningMock | undefined;
afterEach(async () => {
  await mock?.close();
  await running?.close();
  mock = undefined;
  running = undefined;
});
async function open(options: MockOptions = {}): Promise<MockApp> {
  mock = await createApp({ log: () => undefined, ...options });
  return mock;
}
const asDemo = (test: request.Test) => test.auth('demo', 'demo').set('X-Client-Specification', '2');

interface Node {
  id: string;
  name: string;
  kind: string;
  tags: string[];
  metadata: Record<string, string>;
  locks: Array<{ scope: string; depth: string; direct: boolean }>;
  rest: string;
  dav: string | null;
  members?: number;
  recycled?: string;
  bytes: number;
  mimeType: string;
}
async function childrenOf(app: MockApp, id: string): Promise<Node[]> {
  return (await request(app.app).get('/__admin/inspector/children').query({ user: 'demo', id }).expect(200)).body.nodes;
}
async function demoRoot(app: MockApp): Promise<string> {
  const { users } = (await request(app.app).get('/__admin/inspector/users').expect(200)).body;
  return users.find((u: { user: string }) => u.user === 'demo').rootId;
}

describe('inspector page at GET /__admin/', () => {
  it('serves the page under a policy that allows only its own files, and its stylesheet and modules', async () => {
    const app = await open();
    const page = await request(app.app)
      .get('/__admin/')
      .expect(200)
      .expect('Content-Type', /text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.text).toContain('<script type="module" src="inspector/page/main.js">');
    await request(app.app).get('/__admin').expect(301).expect('Location', '/__admin/');
    await request(app.app)
      .get('/__admin/inspector/page/inspector.css')
      .expect(200)
      .expect('Content-Type', /text\/css/);
    await request(app.app)
      .get('/__admin/inspector/page/main.js')
      .expect(200)
      .expect('Content-Type', /javascript/);
    const missing = await request(app.app).get('/__admin/inspector/page/nothing.js').expect(404);
    expect(missing.text).not.toContain('/');
  });

  it('weighs under 150 KB in all (page, stylesheet, icon and every module)', () => {
    const sizes = (dir: string, pattern: RegExp) =>
      readdirSync(dir)
        .filter((f) => pattern.test(f))
        .reduce((sum, f) => sum + statSync(`${dir}/${f}`).size, 0);
    const built = fileURLToPath(new URL('../../../dist/admin/inspector-page', import.meta.url));
    expect(sizes(built, /\.js$/)).toBeGreaterThan(0);
    expect(sizes(built, /\.html$/)).toBeGreaterThan(0);
    expect(sizes(built, /\.(html|css|svg|js)$/)).toBeLessThan(150 * 1024);
  });

  it('loads without the admin token, while every data call needs it', async () => {
    const app = await open({ adminToken: 'sesame' });
    await request(app.app).get('/__admin/').expect(200);
    await request(app.app).get('/__admin/inspector/page/main.js').expect(200);
    await request(app.app).get('/__admin/inspector/users').expect(401);
    await request(app.app).get('/__admin/inspector/events').expect(401);
    await request(app.app).get('/__admin/inspector/users').set('Authorization', 'Bearer sesame').expect(200);
  });
});

describe('inspector Files data', () => {
  it('lists the demo tree with sizes, versions, MIME types, tags, metadata and both addresses', async () => {
    const app = await open();
    const top = await childrenOf(app, await demoRoot(app));
    expect(top.map((n) => n.name)).toEqual(['Documents', 'Music', 'Photos', 'hello.json']);
    const documents = top[0]!;
    expect(documents).toMatchObject({
      kind: 'container',
      members: 3,
      dav: '/dav/Documents/',
      rest: `/v2/containers/${documents.id}`,
    });
    const readme = (await childrenOf(app, documents.id)).find((n) => n.name === 'readme.txt')!;
    expect(readme).toMatchObject({
      kind: 'file',
      mimeType: 'text/plain',
      tags: ['important'],
      metadata: { author: 'demo' },
      dav: '/dav/Documents/readme.txt',
      rest: `/v2/files/${readme.id}`,
    });
    const content = await request(app.app)
      .get('/__admin/inspector/content')
      .query({ user: 'demo', id: readme.id })
      .expect(200);
    expect(content.text).toContain('Welcome, demo.');
    expect(content.headers['content-security-policy']).toBe('sandbox');
  });

  it('shows a WebDAV lock on the locked container and, inherited, on its members only', async () => {
    const app = await open();
    const lockBody =
      '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';
    await asDemo(request(app.app).lock('/dav/Documents/'))
      .set('Depth', 'infinity')
      .set('Content-Type', 'application/xml')
      .send(lockBody)
      .expect(200);
    const top = await childrenOf(app, await demoRoot(app));
    const documents = top.find((n) => n.name === 'Documents')!;
    expect(documents.locks).toEqual([expect.objectContaining({ scope: 'exclusive', depth: 'infinity', direct: true })]);
    const readme = (await childrenOf(app, documents.id)).find((n) => n.name === 'readme.txt')!;
    expect(readme.locks).toEqual([expect.objectContaining({ direct: false })]);
    expect(top.find((n) => n.name === 'Photos')!.locks).toEqual([]);
  });

  it('lists the recycle bin after a delete, and its files can still be read', async () => {
    const app = await open();
    const hello = (await childrenOf(app, await demoRoot(app))).find((n) => n.name === 'hello.json')!;
    await asDemo(request(app.app).delete(`/v2/files/${hello.id}`)).expect(204);
    const bin = (await request(app.app).get('/__admin/inspector/recycle-bin').query({ user: 'demo' }).expect(200)).body;
    expect(bin.nodes).toEqual([
      expect.objectContaining({ name: 'hello.json', dav: null, recycled: expect.any(String) }),
    ]);
    await request(app.app).get('/__admin/inspector/content').query({ user: 'demo', id: hello.id }).expect(200);
  });

  it('answers 404 for an unknown user or object and 400 without the parameters', async () => {
    const app = await open();
    await request(app.app).get('/__admin/inspector/children').query({ user: 'nobody', id: 'x' }).expect(404);
    await request(app.app).get('/__admin/inspector/content').query({ user: 'demo', id: 'missing' }).expect(404);
    await request(app.app).get('/__admin/inspector/children').expect(400);
  });
});

describe('inspector Scenario data', () => {
  it('counts how often each fault rule matched and fired', async () => {
    const app = await open({ scenario: 'tag-objects-500' });
    await asDemo(request(app.app).get('/v2/tags/important/objects')).expect(500);
    const view = (await request(app.app).get('/__admin/inspector/scenario').expect(200)).body;
    expect(view).toMatchObject({ name: 'tag-objects-500', recording: null });
    expect(view.faults).toEqual([expect.objectContaining({ label: 'tag-objects-500', matched: 1, applied: 1 })]);
  });

  it("shows a replayed recording's exchanges and which were served; the journal says served or missed (with the near misses)", async () => {
    const app = await open({ scenario: 'replay-example' });
    await asDemo(request(app.app).get('/v2/tags')).expect(200);
    await asDemo(request(app.app).get('/v2/nothing-recorded')).expect(404);
    const view = (await request(app.app).get('/__admin/inspector/scenario').expect(200)).body;
    expect(view.recording.name).toBe('example-session');
    const served = view.recording.exchanges.filter((e: { served: number }) => e.served > 0);
    expect(served).toEqual([expect.objectContaining({ method: 'GET', path: '/v2/tags', served: 1 })]);
    const [hit, miss] = app.requests();
    expect(hit!.replay).toEqual({ outcome: 'served', exchange: served[0].id });
    expect(miss!.replay).toMatchObject({
      outcome: 'missed',
      nearMiss: expect.stringContaining('Nearest recorded requests'),
    });
  });
});

describe('inspector event stream', () => {
  it('sends the journal, then each request as it arrives and completes, then a clear', async () => {
    running = await startMock({ log: () => undefined });
    const controller = new AbortController();
    const res = await fetch(`${running.url}/__admin/inspector/events`, { signal: controller.signal });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const waitFor = async (needle: string) => {
      while (!text.includes(needle)) text += (await reader.read()).value ?? '';
    };
    await waitFor('event: snapshot');
    await fetch(`${running.url}/v2/account`, {
      headers: { Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}` },
    });
    await waitFor('event: updated');
    expect(text).toMatch(/event: added\ndata: \{"seq":1,[^\n]*"path":"\/v2\/account"/);
    expect(text).toMatch(/event: updated\ndata: \{[^\n]*"status":200/);
    await running.reset();
    await waitFor('event: scenario');
    expect(text).toContain('event: cleared');
    controller.abort();
  });
});
