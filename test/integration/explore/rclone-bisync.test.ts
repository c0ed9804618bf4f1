// explore against a sync client nobody here wrote: Debian's rclone bisync over /dav. What it found is kept as
// a repro bundle (test/support/sync-clients/rclone-bisync-repro.json) and replayed here.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { explore } from '../../../src/index.js';

const CLIENT = fileURLToPath(new URL('../../support/sync-clients/rclone-bisync.sh', import.meta.url));
const BUNDLE = fileURLToPath(new URL('../../support/sync-clients/rclone-bisync-repro.json', import.meta.url));

let root: string;
beforeEach(async () => void (root = await mkdtemp(join(tmpdir(), 'csp-mock-explore-rclone-'))));
afterEach(() => rm(root, { recursive: true, force: true }));

it(
  'rclone bisync keeps a locally moved file under both names when the upload of its new name is an ambiguous commit',
  { timeout: 300_000 },
  async () => {
    if (spawnSync('rclone', ['version']).status !== 0)
      throw new Error('rclone is not installed (.ci/run installs it; Debian: apt-get install rclone)');
    const state = join(root, 'rclone-state');
    const report = await explore({
      client: `RCLONE_STATE='${state}' sh '${CLIENT}'`,
      clientState: state,
      dir: join(root, 'sync'),
      replay: BUNDLE,
      runs: 3,
    });
    // The upload answered 503 after it landed; rclone deleted it, gave up the pass, and its --resync recovery
    // brought the old name back from the account: the move became a copy.
    expect(report.reproduced).toBe(3);
    expect(report.failure?.findings).toEqual([
      {
        kind: 'duplicates',
        message: expect.stringContaining('is under 2 names: /Documents/Reports/q3-report.pdf, /Photos/q3-report.pdf'),
        paths: ['/Documents/Reports/q3-report.pdf', '/Photos/q3-report.pdf'],
      },
    ]);
  },
);
