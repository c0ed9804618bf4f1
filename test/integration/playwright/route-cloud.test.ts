import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { routeCloud, type RoutedCloud } from '../../../src/playwright/route-cloud.js';
import { routeAnswerOf } from '../../../src/playwright/route-exchange.js';
import { contentOf } from '../../helpers/stores.js';
import { launchChromium } from '../../helpers/chromium.js';

const BASE = 'https://cloud.example.test';
const APP = 'https://app.example.test';
const DEMO = { Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}`, 'X-Client-Specification': '2' };

let browser: Browser;
let context: BrowserContext;
let mocks: RoutedCloud[] = [];

beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(() => browser?.close());
afterEach(async () => {
  for (const mock of mocks) await mock.close();
  mocks = [];
  await context?.close();
});

/** A context whose page sits on another origin than the service (a static page served by a route). */
async function pageOnApp(options: Parameters<typeof routeCloud>[2] = {}): Promise<{ page: Page; mock: RoutedCloud }> {
  context = await browser.newContext();
  await context.route(`${APP}/`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>app</title>' }),
  );
  const mock = await routeCloud(context, BASE, { seed: 'empty', ...options });
  mocks.push(mock);
  const page = await context.newPage();
  await page.goto(`${APP}/`);
  return { page, mock };
}

describe('the Playwright route to an in-process mock', () => {
  it('a FormData upload of all 256 byte values is stored byte for byte, answers 201 with a Location the page reads, and downloads byte for byte', async () => {
    const { page, mock } = await pageOnApp();
    const seen = await page.evaluate(
      async ({ base, headers }) => {
        const entry = await (await fetch(`${base}/v2`, { headers })).text();
        const root = /rootContainer[^>]*xlink:href="([^"]+)"/.exec(entry)![1]!;
        const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
        const form = new FormData();
        form.append('file', new Blob([bytes], { type: 'application/octet-stream' }), 'all-bytes.bin');
        const created = await fetch(`${root}/contents`, { method: 'POST', body: form, headers });
        const location = created.headers.get('Location')!;
        const download = await fetch(`${location}/content`, { headers });
        return {
          status: created.status,
          location,
          downloadStatus: download.status,
          downloaded: Array.from(new Uint8Array(await download.arrayBuffer())),
        };
      },
      { base: BASE, headers: DEMO },
    );
    expect(seen.status).toBe(201);
    expect(seen.location).toMatch(/^https:\/\/cloud\.example\.test\/v2\/files\//);
    expect(seen.downloadStatus).toBe(200);
    expect(seen.downloaded).toEqual(Array.from({ length: 256 }, (_, i) => i));
    const file = mock.store.resolvePath('demo', ['all-bytes.bin'])!;
    expect([...(await contentOf(mock.store, file.blobId))]).toEqual(seen.downloaded);
    expect((await mock.requests({ method: 'POST' })).map((e) => e.status)).toEqual([201]);
  });

  it('a page on another origin reads ETag and Last-Modified, revalidates to 304, and a WebDAV PROPFIND answers 207', async () => {
    const { page, mock } = await pageOnApp();
    await mock.change({ user: 'demo', create: '/notes.txt', text: 'routed notes' });
    const seen = await page.evaluate(
      async ({ base, headers }) => {
        const first = await fetch(`${base}/dav/notes.txt`, { headers });
        const etag = first.headers.get('ETag');
        const again = await fetch(`${base}/dav/notes.txt`, { headers: { ...headers, 'If-None-Match': etag! } });
        const listing = await fetch(`${base}/dav/`, { method: 'PROPFIND', headers: { ...headers, Depth: '1' } });
        return {
          status: first.status,
          etag,
          lastModified: first.headers.get('Last-Modified'),
          body: await first.text(),
          again: again.status,
          listing: listing.status,
          listed: (await listing.text()).includes('notes.txt'),
        };
      },
      { base: BASE, headers: DEMO },
    );
    expect(seen).toMatchObject({ status: 200, body: 'routed notes', again: 304, listing: 207, listed: true });
    expect(seen.etag).toMatch(/^"/);
    expect(seen.lastModified).toMatch(/GMT$/);
  });

  it('an answer with two Set-Cookie headers sets both cookies, and a repeated header reads as one list', async () => {
    context = await browser.newContext();
    await context.route(`${APP}/`, (route) =>
      route.fulfill(
        routeAnswerOf({
          status: 200,
          headers: {
            'content-type': 'text/html',
            'set-cookie': ['first=1; Path=/', 'second=2; Path=/'],
            'x-cloud-note': ['a', 'b'],
            'transfer-encoding': 'chunked',
          },
          body: Buffer.from('<!doctype html><title>cookies</title>'),
        }),
      ),
    );
    const page = await context.newPage();
    const response = await page.goto(`${APP}/`);
    expect(await response!.headerValue('x-cloud-note')).toBe('a, b');
    expect((await context.cookies()).map((c) => `${c.name}=${c.value}`).sort()).toEqual(['first=1', 'second=2']);
  });

  it('a reset or a body cut short is a network error in the page; a 500 sent whole before a close is a 500', async () => {
    const { page, mock } = await pageOnApp({
      scenario: {
        name: 'broken-connections',
        faults: [
          { match: { method: 'GET', path: '/v2' }, connection: 'reset' },
          { match: { method: 'GET', path: '/dav/notes.txt' }, truncateAfterBytes: 4 },
          { match: { method: 'GET', path: '/dav/' }, respond: { status: 500, body: 'observed' }, connection: 'close' },
        ],
      },
    });
    await mock.change({ user: 'demo', create: '/notes.txt', text: 'a body longer than four bytes' });
    const seen = await page.evaluate(
      ({ base, headers }) =>
        Promise.all(
          ['/v2', '/dav/notes.txt', '/dav/'].map((path) =>
            fetch(`${base}${path}`, { headers }).then(
              async (res) => `${res.status} ${await res.text()}`,
              (err: unknown) => String(err),
            ),
          ),
        ),
      { base: BASE, headers: DEMO },
    );
    expect(seen).toEqual(['TypeError: Failed to fetch', 'TypeError: Failed to fetch', '500 observed']);
    const outcomes = (await mock.requests())
      .filter((e) => e.device !== 'second')
      .map((e) => `${e.path} ${e.outcome}`)
      .sort();
    expect(outcomes).toEqual(['/dav/ closed', '/dav/notes.txt truncated', '/v2 reset']);
  });
});

describe('what the route leaves alone', () => {
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    // The app's own dev server, which serves the page and an API of its own beside the proxied service.
    server = createServer((req, res) => {
      const page = req.url === '/';
      res.setHeader('Content-Type', page ? 'text/html' : 'text/plain');
      res.end(page ? '<!doctype html><title>dev server</title>' : `dev server answered ${req.url}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("with the app's own origin as base URL, /v2 and /dav reach the mock and every other path reaches the dev server; after close, /v2 does too", async () => {
    context = await browser.newContext();
    const mock = await routeCloud(context, origin, { seed: 'empty' });
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    const fetchAll = (): Promise<string[]> =>
      page.evaluate(async (headers) => {
        const read = async (path: string): Promise<string> => {
          const res = await fetch(path, { headers });
          return `${path} ${res.status} ${(await res.text()).slice(0, 40)}`;
        };
        return [await read('/v2x'), await read('/api/hello'), await read('/dav/'), await read('/v2')];
      }, DEMO);
    const routed = await fetchAll();
    expect(routed.slice(0, 2)).toEqual([
      '/v2x 200 dev server answered /v2x',
      '/api/hello 200 dev server answered /api/hello',
    ]);
    expect(routed[2]).toMatch(/^\/dav\/ 200 /);
    expect(routed[3]).toMatch(/^\/v2 200 <cloud /);
    expect((await mock.requests()).map((e) => `${e.method} ${e.path}`)).toEqual(['GET /dav/', 'GET /v2']);
    await mock.close();
    expect((await fetchAll())[3]).toBe('/v2 200 dev server answered /v2');
  });
});
