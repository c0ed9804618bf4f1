import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { launchChromiumProfile } from '../helpers/chromium.js';

const basic = (user: string): string => `Basic ${Buffer.from(`${user}:pw`).toString('base64')}`;

/**
 * A page that, if its script runs, reads every user's tree from the admin API and resets the mock
 * (synchronous requests: once the page has loaded, whatever it did is done).
 */
const HOSTILE_PAGE = `<!doctype html><html><head><title>untouched</title></head><body><p>report</p>
<script>
  const state = new XMLHttpRequest();
  state.open('GET', '/__admin/state', false);
  state.send();
  const reset = new XMLHttpRequest();
  reset.open('POST', '/__admin/reset', false);
  reset.send();
  document.title = 'state ' + state.status + ' ' + state.responseText.length + ', reset ' + reset.status;
</script></body></html>`;

let context: BrowserContext;
let profile: string;
let mock: RunningMock | undefined;

beforeAll(async () => {
  profile = await mkdtemp(join(tmpdir(), 'csp-mock-chromium-'));
  context = await launchChromiumProfile(profile);
}, 60_000);

afterAll(async () => {
  await context?.close();
  await rm(profile, { recursive: true, force: true });
});

afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe('a stored page opened in Chromium', () => {
  for (const surface of ['/dav', '/v2'] as const) {
    it(`an HTML file served by ${surface} cannot read the admin state or reset the mock: another user's file survives`, async () => {
      mock = await startMock({ users: { alice: 'pw', bob: 'pw' }, seed: 'empty', log: () => undefined });
      const bobRoot = mock.store.root('bob');
      await mock.store.createFile('bob', bobRoot.id, { name: 'secret.txt' }, Buffer.from('bob only'));
      const put = await fetch(`${mock.url}/dav/report.html`, {
        method: 'PUT',
        headers: { Authorization: basic('alice'), 'Content-Type': 'text/html' },
        body: HOSTILE_PAGE,
      });
      expect(put.status).toBe(201);
      const page = mock.store.tree.children(mock.store.root('alice').id)[0]!;
      const url = surface === '/dav' ? `${mock.url}/dav/report.html` : `${mock.url}/v2/files/${page.id}/content`;
      const tab = await context.newPage();
      try {
        await tab.setExtraHTTPHeaders({ Authorization: basic('alice'), 'X-Client-Specification': '2' });
        const res = await tab.goto(url, { waitUntil: 'load' });
        expect(res?.status()).toBe(200);
        expect(res?.headers()['content-type']).toMatch(/^text\/html/);
        expect(await tab.textContent('p')).toBe('report');
        expect(await tab.title()).toBe('untouched');
      } finally {
        await tab.close();
      }
      expect(mock.store.tree.children(mock.store.root('bob').id).map((n) => n.name)).toEqual(['secret.txt']);
    }, 30_000);
  }

  it('a respond rule that brings its own loose Content-Security-Policy still serves its page sandboxed', async () => {
    mock = await startMock({
      users: { alice: 'pw' },
      seed: 'empty',
      log: () => undefined,
      scenario: {
        faults: [
          {
            match: { method: 'GET', path: '/dav/report.html' },
            respond: {
              status: 200,
              headers: {
                'Content-Type': 'text/html',
                'Content-Security-Policy': "script-src 'unsafe-inline'",
                'X-Content-Type-Options': 'none',
              },
              body: HOSTILE_PAGE,
            },
          },
        ],
      },
    });
    const tab = await context.newPage();
    try {
      const res = await tab.goto(`${mock.url}/dav/report.html`, { waitUntil: 'load' });
      expect(res?.status()).toBe(200);
      expect(await tab.textContent('p')).toBe('report');
      expect(await tab.title()).toBe('untouched');
    } finally {
      await tab.close();
    }
  }, 30_000);

  it('the /dav folder listing still shows and links the files', async () => {
    mock = await startMock({ users: { alice: 'pw' }, seed: 'empty', log: () => undefined });
    const root = mock.store.root('alice');
    const folder = await mock.store.createContainer('alice', root.id, 'Reports');
    await mock.store.createFile('alice', folder.id, { name: 'a.txt', mimeType: 'text/plain' }, Buffer.from('a'));
    const tab = await context.newPage();
    try {
      await tab.setExtraHTTPHeaders({ Authorization: basic('alice') });
      const res = await tab.goto(`${mock.url}/dav/Reports/`, { waitUntil: 'load' });
      expect(res?.status()).toBe(200);
      expect(await tab.getByRole('heading', { level: 1 }).textContent()).toBe('Index of /dav/Reports/');
      await tab.getByRole('link', { name: 'a.txt' }).click();
      await tab.waitForURL(`${mock.url}/dav/Reports/a.txt`);
      expect(await tab.textContent('body')).toBe('a');
    } finally {
      await tab.close();
    }
  }, 30_000);
});
