import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { useInspectorTabs } from '../helpers/inspector-tabs.js';

const SERVICE = {
  Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}`,
  'X-Client-Specification': '2',
};
/** Where the README's screenshot goes: `npm run screenshot` sets it; otherwise a temporary file. */
const SCREENSHOT = process.env['CSP_MOCK_SCREENSHOT'];

const tab = useInspectorTabs();
let mock: RunningMock;
let page: Page;
beforeEach(() => void ({ mock, page } = tab));

async function openInspector(url = `${mock.url}/__admin/`): Promise<void> {
  await page.goto(url);
  await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
}

const region = (name: 'Requests' | 'Files' | 'Scenario') => page.getByRole('region', { name });
const tree = () => region('Files').getByRole('tree', { name: 'Files of demo' });

async function activeScenario(): Promise<string> {
  return ((await (await fetch(`${mock.url}/__admin/scenario`)).json()) as { name: string }).name;
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 100; i += 1) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting until ${what}`);
}

describe('the inspector in Chromium', () => {
  it('has the three named regions, the Scenario combobox and the Reset button', async () => {
    await openInspector();
    for (const name of ['Requests', 'Files', 'Scenario'] as const) await region(name).waitFor();
    await region('Scenario').getByRole('combobox', { name: 'Scenario' }).waitFor();
    await region('Scenario').getByRole('button', { name: 'Reset', exact: true }).waitFor();
  }, 30_000);

  it('shows a request made by a client as it arrives (its event stream), without a reload', async () => {
    await openInspector();
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => navigations.push(frame.url()));
    const res = await fetch(`${mock.url}/v2/account`, { headers: SERVICE });
    expect(res.status).toBe(200);
    const row = region('Requests')
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: '/v2/account' }) });
    await row.waitFor();
    await row.getByText('200').waitFor();
    expect(navigations).toEqual([]);
    await row.getByRole('button', { name: '/v2/account' }).click();
    await page
      .getByRole('group', { name: 'Request details' })
      .getByRole('row', { name: 'authorization [removed]' })
      .waitFor();
  }, 30_000);

  it('shows the demo tree and expands Documents by mouse and keyboard', async () => {
    await openInspector();
    for (const name of ['Documents', 'Music', 'Photos', 'hello.json'])
      await tree().getByRole('treeitem', { name, exact: true }).waitFor();
    const documents = tree().getByRole('treeitem', { name: 'Documents', exact: true });
    await documents.locator('.row').first().click();
    expect(await documents.getAttribute('aria-expanded')).toBe('true');
    await tree().getByRole('treeitem', { name: 'readme.txt' }).waitFor();
    await page.getByRole('group', { name: 'Object details' }).getByText('/dav/Documents/').waitFor();
    await page.keyboard.press('ArrowLeft');
    await tree().getByRole('treeitem', { name: 'readme.txt' }).waitFor({ state: 'detached' });
    await page.keyboard.press('ArrowRight');
    await tree().getByRole('treeitem', { name: 'readme.txt' }).waitFor();
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Reports');
  }, 30_000);

  it('previews an image and downloads a file with its bytes', async () => {
    await openInspector();
    await tree().getByRole('treeitem', { name: 'Photos', exact: true }).click();
    await tree().getByRole('treeitem', { name: 'sunset.png' }).click();
    const details = page.getByRole('group', { name: 'Object details' });
    const image = details.getByRole('img', { name: 'Preview of sunset.png' });
    await image.waitFor();
    await until(
      () => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 1),
      'the preview has loaded',
    );
    await tree().getByRole('treeitem', { name: 'hello.json' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      details.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('hello.json');
    const saved = await readFile((await download.path())!);
    const stored = await fetch(`${mock.url}/dav/hello.json`, { headers: SERVICE });
    expect(saved.equals(Buffer.from(await stored.arrayBuffer()))).toBe(true);
  }, 30_000);

  it('filters requests by method, status and outcome, and holds them while paused', async () => {
    await openInspector();
    await fetch(`${mock.url}/v2/account`, { headers: SERVICE });
    await fetch(`${mock.url}/v2/missing`, { headers: SERVICE });
    await fetch(`${mock.url}/dav/Documents/`, { method: 'PROPFIND', headers: { ...SERVICE, Depth: '1' } });
    const requests = region('Requests');
    const visiblePaths = () => requests.locator('tbody tr:not([hidden]) td.path').allTextContents();
    await requests.getByText('3 requests').waitFor();
    await requests.getByText('207', { exact: true }).waitFor();
    await requests.getByLabel('Method').selectOption('PROPFIND');
    expect(await visiblePaths()).toEqual(['/dav/Documents/']);
    await requests.getByLabel('Method').selectOption('');
    await requests.getByLabel('Status').fill('4xx');
    expect(await visiblePaths()).toEqual(['/v2/missing']);
    await requests.getByLabel('Status').fill('');
    await requests.getByLabel('Outcome').selectOption('answered');
    expect(await visiblePaths()).toHaveLength(3);
    await requests.getByLabel('Outcome').selectOption('');
    await requests.getByRole('button', { name: 'Pause' }).click();
    await fetch(`${mock.url}/v2/tags`, { headers: SERVICE });
    await requests.getByText(/paused, \d+ updates waiting/).waitFor();
    expect(await visiblePaths()).not.toContain('/v2/tags');
    await requests.getByRole('button', { name: 'Resume' }).click();
    await requests.getByText('4 requests').waitFor();
    expect((await visiblePaths())[0]).toBe('/v2/tags');
  }, 30_000);

  it('switches the server to tag-objects-500 from the Scenario selector', async () => {
    await openInspector();
    await region('Scenario').getByRole('combobox', { name: 'Scenario' }).selectOption('tag-objects-500');
    await until(async () => (await activeScenario()) === 'tag-objects-500', 'the server runs tag-objects-500');
    await region('Scenario').getByText('fired 0×').waitFor();
  }, 30_000);

  it('pages a folder of 450 members by 200: "Show more" twice shows all 450, in listing order', async () => {
    await mock.close();
    // Made in reverse, in mixed case, folders among files: the listing's order is none of these.
    const children = Array.from({ length: 450 }, (_, i) => 450 - i).map((n) =>
      n % 9 === 0 ? { container: `Sub ${n}` } : { file: `${n % 2 ? 'item' : 'Item'}-${n}.txt`, text: String(n) },
    );
    await mock.close();
    mock = tab.mock = await startMock({
      log: () => undefined,
      scenario: { seed: { tree: [{ container: 'Big', children }] } },
    });
    const bigId = mock.store.resolvePath('demo', ['Big'])!.id;
    const listing = await (
      await fetch(`${mock.url}/v2/containers/${bigId}/contents?start=0&count=500`, {
        headers: { ...SERVICE, 'X-Cloud-Depth': '1' },
      })
    ).text();
    const listed = [...listing.matchAll(/<name>([^<]*)<\/name>/g)].map((m) => m[1]);
    expect(listed).toHaveLength(450);
    expect(listed, 'an order of its own, not the order of making').not.toEqual(
      children.map((c) => ('container' in c ? c.container : c.file)),
    );

    await openInspector();
    const big = tree().getByRole('treeitem', { name: 'Big', exact: true });
    await big.locator('.row').first().click();
    const members = big.locator(':scope > [role=group] > [role=treeitem]');
    const more = big.getByRole('button', { name: /^Show \d+ more/ });
    await more.waitFor();
    expect(await members.count()).toBe(200);
    await more.click();
    await members.nth(399).waitFor();
    expect(await members.count()).toBe(400);
    await more.click();
    await members.nth(449).waitFor();
    await more.waitFor({ state: 'detached' });
    expect(await members.evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')))).toEqual(listed);
  }, 60_000);

  it('Reset asks first, then restores the seed', async () => {
    await openInspector();
    expect((await fetch(`${mock.url}/dav/added.txt`, { method: 'PUT', headers: SERVICE, body: 'new' })).status).toBe(
      201,
    );
    await tree().getByRole('treeitem', { name: 'added.txt' }).waitFor();
    await region('Scenario').getByRole('button', { name: 'Reset', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset the mock?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(mock.store.resolvePath('demo', ['added.txt'])).toBeDefined();
    await region('Scenario').getByRole('button', { name: 'Reset', exact: true }).click();
    await dialog.getByRole('button', { name: 'Reset state' }).click();
    await tree().getByRole('treeitem', { name: 'added.txt' }).waitFor({ state: 'detached' });
    expect(mock.store.resolvePath('demo', ['added.txt'])).toBeUndefined();
    await tree().getByRole('treeitem', { name: 'Documents', exact: true }).waitFor();
  }, 30_000);

  it('asks for the admin token when one is set, and keeps it for the tab', async () => {
    await mock.close();
    mock = tab.mock = await startMock({ log: () => undefined, adminToken: 'open-sesame' });
    await page.goto(`${mock.url}/__admin/`);
    const dialog = page.getByRole('dialog', { name: 'Admin token' });
    await dialog.getByLabel('Token').fill('open-sesame');
    await dialog.getByRole('button', { name: 'Use token' }).click();
    await tree().getByRole('treeitem', { name: 'Documents', exact: true }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    await page.reload();
    await tree().getByRole('treeitem', { name: 'Documents', exact: true }).waitFor();
    // The one refusal before the token was given is the browser's only complaint.
    expect(tab.consoleErrors.filter((e) => e.includes('401'))).toHaveLength(1);
    tab.consoleErrors = tab.consoleErrors.filter((e) => !e.includes('401'));
  }, 30_000);

  it('follows the dark colour scheme', async () => {
    await openInspector();
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: 'light' });
    const light = await background();
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await background()).not.toBe(light);
  }, 30_000);

  it('browses the /dav HTML listing: every member is a link, and the parent link goes back', async () => {
    await page.setExtraHTTPHeaders({ Authorization: SERVICE.Authorization });
    await page.goto(`${mock.url}/dav/Documents/`);
    for (const name of ['Reports/', 'notes.md', 'readme.txt']) {
      expect(await page.getByRole('link', { name, exact: true }).getAttribute('href')).toBe(`/dav/Documents/${name}`);
    }
    await page.getByRole('link', { name: 'Reports/' }).click();
    await page.getByRole('link', { name: 'q3-report.pdf' }).waitFor();
    await page.getByRole('link', { name: 'Parent collection' }).click();
    await page.waitForURL(`${mock.url}/dav/Documents/`);
  }, 30_000);

  it('takes the screenshot the README shows', async () => {
    await openInspector();
    await page.emulateMedia({ colorScheme: 'light' });
    for (const [method, path, body] of [
      ['GET', '/v2/account'],
      ['PROPFIND', '/dav/Documents/'],
      ['PUT', '/dav/Documents/draft.txt', 'A first draft.\n'],
      ['GET', '/v2/tags'],
    ] as const) {
      await fetch(`${mock.url}${path}`, { method, headers: { ...SERVICE, Depth: '1' }, body });
    }
    await region('Scenario').getByRole('combobox', { name: 'Scenario' }).selectOption('tag-objects-500');
    await until(async () => (await activeScenario()) === 'tag-objects-500', 'the server runs tag-objects-500');
    await fetch(`${mock.url}/v2/tags/important/objects`, { headers: SERVICE }).catch(() => undefined);
    await fetch(`${mock.url}/v2/nothing-here`, { headers: SERVICE });
    await tree().getByRole('treeitem', { name: 'Documents', exact: true }).locator('.row').first().click();
    await tree().getByRole('treeitem', { name: 'readme.txt' }).click();
    await page.getByRole('group', { name: 'Object details' }).getByRole('heading', { name: 'Preview' }).waitFor();
    await region('Requests').getByRole('button', { name: '/v2/tags/important/objects' }).click();
    await region('Scenario').getByText('fired 1×').waitFor();
    const file = SCREENSHOT ? resolve(SCREENSHOT) : join(tab.profile, 'inspector.png');
    await page.screenshot({ path: file });
    const png = await readFile(file);
    // The PNG header's IHDR: width and height at 1280x800.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1280, 800]);
  }, 30_000);
});
