// A web app in Debian's Chromium, on its own localhost port, calling a mock on another port (CORS).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock, type StartOptions } from '../../src/index.js';
import { launchChromium, pageServer, readmeFile, runFlow, statusOf } from './web-app-browser.js';

const SERVICE = {
  Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}`,
  'X-Client-Specification': '2',
};

let browser: Browser;
let pages: Awaited<ReturnType<typeof pageServer>>;
let mock: RunningMock;
let contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  for (const context of contexts) await context.close();
  contexts = [];
  await pages?.close();
  await mock?.close();
});

async function start(options: StartOptions = {}): Promise<void> {
  mock = await startMock({ log: () => undefined, ...options });
  pages = await pageServer({
    '/': { body: readmeFile('web/index.html').replaceAll('8080', String(mock.port)) },
    '/blank': { body: '<!doctype html><title>blank</title>' },
    '/sandboxed': {
      body: '<!doctype html><title>sandboxed</title>',
      headers: { 'Content-Security-Policy': 'sandbox allow-scripts' },
    },
  });
}

async function pageOn(
  origin: string,
  path = '/blank',
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<Page> {
  const context = await browser.newContext(options);
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(`${origin}${path}`);
  return page;
}

/** The whole tree of every user, as the admin API shows it (to prove nothing changed). */
async function stateOf(token?: string): Promise<string> {
  const res = await fetch(`${mock.url}/__admin/state`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  expect(res.status).toBe(200);
  return res.text();
}

describe('a web app on another localhost port, in Chromium', () => {
  it("the README's page uploads a file with FormData and reads its Location", async () => {
    await start();
    const page = await pageOn(`http://localhost:${pages.port}`, '/');
    await page.waitForFunction(() => /^\d{3} /.test(document.title), undefined, { timeout: 20_000 });
    expect(await page.title()).toMatch(new RegExp(`^201 ${mock.url}/v2/files/\\S+$`));
  }, 60_000);

  it('does the whole flow: entry, folder, FormData upload, PUT and ETag, 304, PROPFIND, an injected 500, a 401', async () => {
    await start();
    const page = await pageOn(`http://localhost:${pages.port}`);
    const seen = await page.evaluate(runFlow, mock.url);
    expect(seen).toEqual({
      entry: 200,
      folder: [201, expect.stringMatching(new RegExp(`^${mock.url}/v2/containers/`))],
      upload: [201, expect.stringMatching(new RegExp(`^${mock.url}/v2/files/`))],
      put: 204,
      readBack: [200, 'second\n', expect.stringMatching(/^"/)],
      conditional: 304,
      propfind: [207, true],
    });
    await mock.useScenario('tag-objects-500');
    const headers = SERVICE;
    expect(
      await page.evaluate(statusOf, [`${mock.url}/v2/tags/important/objects`, { headers }] as [string, RequestInit]),
    ).toBe(500);
    const wrong = {
      Authorization: `Basic ${Buffer.from('demo:wrong').toString('base64')}`,
      'X-Client-Specification': '2',
    };
    expect(await page.evaluate(statusOf, [`${mock.url}/v2`, { headers: wrong }] as [string, RequestInit])).toBe(401);
  }, 90_000);

  it('the admin API refuses the page: it cannot read the journal or reset the mock', async () => {
    await start();
    const page = await pageOn(`http://localhost:${pages.port}`);
    const before = await stateOf();
    const read = await page.evaluate(statusOf, [`${mock.url}/__admin/requests`, {}] as [string, RequestInit]);
    expect(read).toMatch(/^TypeError/);
    const reset = await page.evaluate(statusOf, [
      `${mock.url}/__admin/scenario`,
      { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: '{"name":"expired-credentials"}' },
    ] as [string, RequestInit]);
    expect(reset).toMatch(/^TypeError/);
    expect(mock.scenario.name).toBe('default');
    expect(await stateOf()).toBe(before);
  }, 60_000);

  it('--cors-origin lets exactly the named origin in', async () => {
    await start();
    await mock.close();
    mock = await startMock({ log: () => undefined, corsOrigins: [`http://app.test:${pages.port}`] });
    const named = await pageOn(`http://app.test:${pages.port}`);
    expect(await named.evaluate(statusOf, [`${mock.url}/v2`, { headers: SERVICE }] as [string, RequestInit])).toBe(200);
    const other = await pageOn(`http://other.test:${pages.port}`);
    expect(await other.evaluate(statusOf, [`${mock.url}/v2`, { headers: SERVICE }] as [string, RequestInit])).toMatch(
      /^TypeError/,
    );
  }, 60_000);
});

describe('hostile pages', () => {
  it.each([undefined, 'admin-s3cret'])(
    'a page on a foreign origin reads and changes nothing (/v2, /dav, /cdmi, /__admin), and none of its requests reaches the service (admin token %s)',
    async (adminToken) => {
      await start({ adminToken });
      const root = mock.store.root('demo').id;
      const before = await stateOf(adminToken);
      const page = await pageOn(`http://evil.test:${pages.port}`);
      const attempts = await page.evaluate(
        async ({ base, rootId }) => {
          const auth = { Authorization: `Basic ${btoa('demo:demo')}`, 'X-Client-Specification': '2' };
          const form = new FormData();
          form.append('file', new Blob(['planted']), 'planted.txt');
          const tries: Array<[string, RequestInit]> = [
            [`${base}/v2`, { headers: auth }],
            [`${base}/v2`, { credentials: 'include' }],
            [`${base}/dav/`, { method: 'PROPFIND', headers: { ...auth, Depth: '1' } }],
            [`${base}/cdmi/demo/`, { headers: auth }],
            [`${base}/__admin/state`, {}],
            [
              `${base}/v2/containers/${rootId}/contents`,
              { method: 'POST', body: form, mode: 'no-cors', credentials: 'include' },
            ],
            [`${base}/dav/planted.txt`, { method: 'POST', body: 'planted', mode: 'no-cors', credentials: 'include' }],
            [`${base}/__admin/reset`, { method: 'POST', body: '{}', mode: 'no-cors', credentials: 'include' }],
            [
              `${base}/__admin/scenario`,
              { method: 'POST', body: 'name=empty', mode: 'no-cors', credentials: 'include' },
            ],
          ];
          const seen: string[] = [];
          for (const [url, init] of tries) {
            try {
              const res = await fetch(url, init);
              seen.push(`${res.type} ${res.status} ${(await res.text()).length}`);
            } catch (err) {
              seen.push((err as Error).name);
            }
          }
          return seen;
        },
        { base: mock.url, rootId: root },
      );
      // Readable requests fail; no-cors ones are opaque (status 0, no body).
      expect(attempts).toEqual([
        'TypeError',
        'TypeError',
        'TypeError',
        'TypeError',
        'TypeError',
        'opaque 0 0',
        'opaque 0 0',
        'opaque 0 0',
        'opaque 0 0',
      ]);
      expect(await stateOf(adminToken)).toBe(before);
      expect(mock.scenario.name).toBe('default');
      // Refused before authentication: not even a 401 (which a browser holding the login would answer).
      expect(await mock.requests()).toEqual([]);
    },
    90_000,
  );

  it('a sandboxed page (Origin: null) is refused', async () => {
    await start({ corsOrigins: ['*'] });
    const page = await pageOn(`http://localhost:${pages.port}`, '/sandboxed');
    expect(await page.evaluate(statusOf, [`${mock.url}/v2`, { headers: SERVICE }] as [string, RequestInit])).toMatch(
      /^TypeError/,
    );
  }, 60_000);

  it('a flood of preflights from a page does not grow the journal: only the requests themselves are in it', async () => {
    await start();
    const page = await pageOn(`http://localhost:${pages.port}`);
    const statuses = await page.evaluate(async (base) => {
      const headers = { Authorization: `Basic ${btoa('demo:demo')}`, 'X-Client-Specification': '2' };
      const all = Array.from({ length: 100 }, (_, i) =>
        fetch(`${base}/v2/files/missing-${i}`, { method: 'DELETE', headers }).then((r) => r.status),
      );
      return Promise.all(all);
    }, mock.url);
    expect(new Set(statuses)).toEqual(new Set([404]));
    const journal = await mock.requests();
    expect(journal.filter((e) => e.method === 'OPTIONS')).toEqual([]);
    expect(journal).toHaveLength(100);
  }, 60_000);
});
