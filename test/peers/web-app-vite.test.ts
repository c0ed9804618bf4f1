// A real Vite dev server with the README's vite.config.mjs proxies /v2 and /dav to the mock; the page, in Chromium, calls its own origin.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { launchChromium, readmeFile, runFlow, statusOf } from './web-app-browser.js';

const SCRATCH = fileURLToPath(new URL('../../.tmp/', import.meta.url));
let browser: Browser;
let mock: RunningMock;
let vite: ViteDevServer;
let root: string;
let origin: string;

/** A port nothing listens on now (Vite and --public-url must agree on it before either starts). */
async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  browser = await launchChromium();
  const port = await freePort();
  origin = `http://localhost:${port}`;
  // npx csp-mock serve --public-url http://localhost:<vite port>
  mock = await startMock({ log: () => undefined, publicUrl: origin });
  // Inside the package, so that the config's `import 'vite'` resolves to this checkout's Vite.
  await mkdir(SCRATCH, { recursive: true });
  root = await mkdtemp(join(SCRATCH, 'vite-'));
  await writeFile(join(root, 'vite.config.mjs'), readmeFile('vite.config.mjs'));
  // The README's page, calling its own origin instead of the mock's.
  await writeFile(join(root, 'index.html'), readmeFile('web/index.html').replace("'http://127.0.0.1:8080'", "''"));
  const before = process.env['CSP_MOCK_URL'];
  process.env['CSP_MOCK_URL'] = mock.url;
  try {
    vite = await createServer({
      root,
      configFile: join(root, 'vite.config.mjs'),
      logLevel: 'silent',
      server: { port, host: 'localhost' },
    });
    await vite.listen();
  } finally {
    if (before === undefined) delete process.env['CSP_MOCK_URL'];
    else process.env['CSP_MOCK_URL'] = before;
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await vite?.close();
  await mock?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe("a real Vite dev server with the README's proxy config", () => {
  it("serves the page, and its FormData upload gets a Location on the dev server's origin", async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${origin}/`);
      await page.waitForFunction(() => /^\d{3} /.test(document.title), undefined, { timeout: 30_000 });
      expect(await page.title()).toMatch(new RegExp(`^201 ${origin}/v2/files/\\S+$`));
    } finally {
      await page.close();
    }
  }, 90_000);

  it("proxies the whole flow, with every link on the page's origin; an injected 500 and a 401 reach the page", async () => {
    // Same origin, a 401 with a Basic challenge makes Chromium ask for a login, which nobody answers headless:
    // the context answers it once with a wrong password, then gives the page the 401.
    const context = await browser.newContext({ httpCredentials: { username: 'demo', password: 'not-the-password' } });
    const page = await context.newPage();
    try {
      await page.goto(`${origin}/`);
      const seen = await page.evaluate(runFlow, '');
      expect(seen).toEqual({
        entry: 200,
        folder: [201, expect.stringMatching(new RegExp(`^${origin}/v2/containers/`))],
        upload: [201, expect.stringMatching(new RegExp(`^${origin}/v2/files/`))],
        put: 204,
        readBack: [200, 'second\n', expect.stringMatching(/^"/)],
        conditional: 304,
        propfind: [207, true],
      });
      await mock.useScenario('tag-objects-500');
      const headers = {
        Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}`,
        'X-Client-Specification': '2',
      };
      expect(await page.evaluate(statusOf, ['/v2/tags/important/objects', { headers }] as [string, RequestInit])).toBe(
        500,
      );
      const wrong = { ...headers, Authorization: `Basic ${Buffer.from('demo:wrong').toString('base64')}` };
      expect(await page.evaluate(statusOf, ['/v2', { headers: wrong }] as [string, RequestInit])).toBe(401);
      const journal = await mock.requests();
      expect(journal.filter((e) => e.method === 'OPTIONS')).toEqual([]);
      expect(journal.some((e) => e.method === 'PROPFIND' && e.status === 207)).toBe(true);
    } finally {
      await context.close();
    }
  }, 90_000);
});
