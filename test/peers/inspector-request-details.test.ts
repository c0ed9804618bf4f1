import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { launchChromium } from '../helpers/chromium.js';

const SERVICE = {
  Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}`,
  'X-Client-Specification': '2',
};

// A scenario and a fault rule with names as long as users give them.
const SCENARIO = {
  name: 'flaky-uploads-and-slow-listings',
  description: 'a fault with a long name that sets a cookie',
  faults: [
    {
      name: 'account-answers-503-with-retry-after',
      match: { method: 'GET', path: '/v2/account' },
      respond: {
        status: 503,
        headers: { 'Retry-After': '7', 'Set-Cookie': 'session=sess-secret-42; Path=/', 'Content-Type': 'text/plain' },
        body: 'try again later\n',
      },
    },
  ],
};

let browser: Browser;
let mock: RunningMock;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(() => browser?.close());
beforeEach(async () => {
  mock = await startMock({ log: () => undefined });
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`${mock.url}/__admin/`);
  await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
}, 30_000);
afterEach(async () => {
  await page.close();
  await mock.close();
});

const details = () => page.getByRole('group', { name: 'Request details' });

/** Opens the details of the newest row whose path button is `path`. */
async function open(path: string): Promise<void> {
  const row = page
    .getByRole('region', { name: 'Requests' })
    .getByRole('row')
    .filter({
      has: page.getByRole('button', { name: path, exact: true }),
    });
  await row.first().getByRole('button', { name: path, exact: true }).click();
  await details()
    .getByRole('heading', { name: new RegExp(` ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) })
    .waitFor();
}

describe("the inspector's request list and details at 1400 x 900", () => {
  it('cuts no column: Scenario, Fault and every other cell but Path fit their content', async () => {
    await mock.useScenario(SCENARIO);
    expect((await fetch(`${mock.url}/v2/account`, { headers: SERVICE })).status).toBe(503);
    expect(
      (
        await fetch(`${mock.url}/dav/Documents/Reports/q3-report.pdf`, {
          method: 'PROPFIND',
          headers: { ...SERVICE, Depth: '0' },
        })
      ).status,
    ).toBe(207);
    await page.getByRole('cell', { name: 'account-answers-503-with-retry-after' }).waitFor();
    await page.getByRole('row').filter({ hasText: 'PROPFIND' }).getByText('207').waitFor();
    const cut = await page.evaluate(() =>
      [...document.querySelectorAll('#request-table tr')].flatMap((tr) =>
        [...tr.querySelectorAll('th, td')].flatMap((cell, column) =>
          cell.classList.contains('path')
            ? []
            : [cell, ...cell.querySelectorAll('*')]
                .filter((el) => el.scrollWidth > el.clientWidth)
                .map((el) => `column ${column}: "${el.textContent}" needs ${el.scrollWidth} px, has ${el.clientWidth}`),
        ),
      ),
    );
    expect(cut).toEqual([]);
    // Nor is any badge but a scenario's or fault's name broken over lines.
    const broken = await page.evaluate(() =>
      [...document.querySelectorAll('#request-table td:not(.names) .badge')]
        .filter((el) => (el as HTMLElement).offsetHeight > parseFloat(getComputedStyle(el).lineHeight) + 1)
        .map((el) => el.textContent),
    );
    expect(broken).toEqual([]);
    const tableFits = await page.evaluate(() => {
      const wrap = document.querySelector('.table-wrap')!;
      return wrap.scrollWidth <= wrap.clientWidth;
    });
    expect(tableFits).toBe(true);
    // The path's full text is in its title when it is cut.
    const title = await page
      .getByRole('button', { name: '/dav/Documents/Reports/q3-report.pdf' })
      .getAttribute('title');
    expect(title).toBe('PROPFIND /dav/Documents/Reports/q3-report.pdf');
  }, 30_000);

  it("shows the answer's status, its headers with credentials removed, and its text body", async () => {
    await mock.useScenario(SCENARIO);
    await fetch(`${mock.url}/v2/account`, { headers: SERVICE });
    await open('/v2/account');
    const panel = details();
    await panel.getByRole('heading', { name: 'Response headers (credentials removed)' }).waitFor();
    const responseHeaders = panel.locator('table.kv').nth(1);
    await responseHeaders.getByRole('row', { name: 'retry-after 7' }).waitFor();
    await responseHeaders.getByRole('row', { name: 'set-cookie [removed]' }).waitFor();
    expect(await panel.textContent()).not.toContain('sess-secret-42');
    await panel.getByText('503', { exact: true }).waitFor();
    expect(await panel.locator('pre.body-preview').textContent()).toBe('try again later\n');
  }, 30_000);

  it('says a binary answer is binary, and shows only the first 4 KB of a long text answer', async () => {
    const big = `${'line of text\n'.repeat(1000)}`;
    expect((await fetch(`${mock.url}/dav/big.txt`, { method: 'PUT', headers: SERVICE, body: big })).status).toBe(201);
    expect((await fetch(`${mock.url}/dav/big.txt`, { headers: SERVICE })).status).toBe(200);
    expect((await fetch(`${mock.url}/dav/Photos/sunset.png`, { headers: SERVICE })).status).toBe(200);
    await open('/dav/Photos/sunset.png');
    await details()
      .getByText(/^Binary, \d+ B: not shown\.$/)
      .waitFor();
    await page
      .getByRole('row')
      .filter({ hasText: 'GET' })
      .getByRole('button', { name: '/dav/big.txt', exact: true })
      .click();
    await details().getByText('The first bytes of 13 KB.').waitFor();
    const shown = await details().locator('pre.body-preview').textContent();
    expect(shown!.length).toBe(4096);
    expect(big.startsWith(shown!)).toBe(true);
  }, 30_000);

  it("labels every field in words: the mock's clock, never its raw key", async () => {
    await fetch(`${mock.url}/v2`, { headers: SERVICE });
    await open('/v2');
    const panel = details();
    await panel.getByText("On the mock's clock").waitFor();
    const text = (await panel.textContent())!;
    expect(text).not.toMatch(/mocktime/i);
    const labels = await panel.locator('dt, h4').allTextContents();
    for (const label of labels) expect(label).not.toMatch(/^[a-z]+[A-Z]\w*$/);
  }, 30_000);
});
