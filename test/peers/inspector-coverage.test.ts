// The inspector's Explore coverage panel in Chromium: a report or repro file the user picks is read in the
// page and shown as a table of the failure shapes the client met; anything else is refused in one line.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { explore, type RunningMock } from '../../src/index.js';
import { useInspectorTabs } from '../helpers/inspector-tabs.js';
import { syncPass } from '../support/sync-clients/dav-sync.js';

const tab = useInspectorTabs();
let mock: RunningMock;
let page: Page;
beforeEach(async () => {
  ({ mock, page } = tab);
  await page.goto(`${mock.url}/__admin/`);
  await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
});

const panel = () => page.getByRole('region', { name: 'Explore coverage' });
const open = (name: string, value: unknown) =>
  panel()
    .getByLabel('Open a report…')
    .setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(value)) });

describe('the Explore coverage panel', () => {
  it("shows a report's coverage map: each shape, how often it was met, what the client did next", async () => {
    const root = await mkdtemp(join(tmpdir(), 'csp-mock-explore-'));
    try {
      const stateFile = join(root, 'state.json');
      const report = await explore({
        client: (pass) => syncPass(pass, { stateFile }),
        clientState: stateFile,
        dir: join(root, 'sync'),
        runs: 2,
        seed: 5000,
        steps: 10,
      });
      expect(report.coverage.length).toBeGreaterThan(0);
      await open('report.json', report);
      await panel()
        .getByRole('status')
        .filter({
          hasText: `report.json: 2 runs from seed 5000, nothing found; ${report.coverage.length} failure shape`,
        })
        .waitFor();
      const rows = panel().getByRole('table', { name: 'Failure shapes met' }).getByRole('row');
      const shown = (await rows.allInnerTexts()).slice(1).map((text) => text.split('\t'));
      expect(shown).toEqual(
        report.coverage.map((row) => [
          row.shape,
          String(row.met),
          Object.entries(row.then)
            .map(([what, n]) => `${what} ${n}`)
            .join(', '),
        ]),
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses a file that is not a report in one line, and shows names as text, never as markup', async () => {
    await open('notes.json', { hello: 'world' });
    await panel()
      .getByRole('status')
      .filter({ hasText: 'notes.json: not an explore report or repro file: it has no "coverage" list' })
      .waitFor();
    expect(await panel().getByRole('table').isHidden()).toBe(true);
    await open('bad.json', { coverage: [{ shape: 'x', met: -1, then: {} }] });
    await panel().getByRole('status').filter({ hasText: 'bad.json: coverage[0] is not a row' }).waitFor();
    const shape = '<img src=x onerror="document.title=1">';
    await open('repro.json', {
      run: 3,
      seed: 9,
      finding: { kind: 'loss' },
      coverage: [{ shape, met: 1, then: { 'went on': 1 } }],
    });
    await panel()
      .getByRole('status')
      .filter({ hasText: 'repro.json: run 3 from seed 9, found loss; 1 failure shape met' })
      .waitFor();
    await panel().getByRole('cell', { name: shape }).waitFor();
    expect(await panel().locator('img').count()).toBe(0);
  }, 30_000);
});
