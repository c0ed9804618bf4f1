// explore against the small sync clients of test/support/sync-clients: each planted bug is found, shrunk to at
// most three steps and reproduced by its bundle every time; the client without a bug is clean.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { explore, type ExploreOptions } from '../../../src/index.js';
import { seedPaths } from '../../../src/explore/shrink.js';
import type { SeedNode } from '../../../src/scenarios/types.js';
import { syncPass, type PlantedBug } from '../../support/sync-clients/dav-sync.js';

let root: string;
beforeEach(async () => void (root = await mkdtemp(join(tmpdir(), 'csp-mock-explore-'))));
afterEach(() => rm(root, { recursive: true, force: true }));

/** The in-code client contract: one pass, its state in a file beside the folder. */
function client(bug?: PlantedBug): Pick<ExploreOptions, 'client' | 'clientState' | 'dir'> {
  const stateFile = join(root, 'client-state.json');
  return { client: (pass) => syncPass(pass, { stateFile, bug }), clientState: stateFile, dir: join(root, 'sync') };
}

const BUGS: ReadonlyArray<{ bug: PlantedBug; finds: string; seed: number; kinds?: ExploreOptions['kinds'] }> = [
  { bug: 'blind-create-retry', finds: 'duplicates', seed: 1 },
  { bug: 'done-after-reset', finds: 'divergence', seed: 1, kinds: ['faults', 'local', 'clock'] },
  { bug: 'lost-under-rename', finds: 'loss', seed: 1 },
];

describe('explore finds each planted bug, shrinks it and replays it from its bundle', () => {
  for (const { bug, finds, seed, kinds } of BUGS) {
    it(
      `${bug}: ${finds}, in at most 3 steps and a smaller seed, 10 replays out of 10`,
      { timeout: 300_000 },
      async () => {
        const found = await explore({ ...client(bug), runs: 40, seed, steps: 20, kinds });
        expect(found.failure?.kind).toBe(finds);
        expect(found.failure!.shrunk.length).toBeLessThanOrEqual(3);
        // The seed shrank too: the repro starts from fewer files and folders than the demo tree's nine.
        const seedTree = found.bundle!.start.seed?.trees?.['demo'];
        expect(Array.isArray(seedTree) && seedPaths(seedTree).length).toBeLessThan(9);
        expect(found.failure!.seedEntries).toEqual({ drawn: 9, shrunk: seedPaths(seedTree as SeedNode[]).length });
        expect(found.bundle!.finding.kind).toBe(finds);
        // The bundle is what a developer attaches: the shrunk schedule, the seed tree, the failing run's journal.
        expect(found.bundle!.steps).toEqual(found.failure!.shrunk);
        expect(found.bundle!.journal.length).toBeGreaterThan(0);
        // The mock's clock belonged to explore: every answer's time is the schedule's, from its start.
        expect(found.bundle!.journal.every((e) => e.mockTime.startsWith('2025-01-01T'))).toBe(true);

        const replayed = await explore({ ...client(bug), replay: found.bundle!, runs: 10 });
        expect(replayed.reproduced).toBe(10);
        expect(replayed.failure?.findings.map((f) => f.kind)).toContain(finds);

        const fixed = await explore({ ...client(), replay: found.bundle!, runs: 1 });
        expect(fixed.reproduced).toBe(0);
        expect(fixed.failure).toBeUndefined();
      },
    );
  }
});

describe('the client without a planted bug', () => {
  // 100 runs take 90 s alone: `npm run bench -- explore` runs them (its last row).
  it('converges with nothing lost or duplicated over 15 runs of 20 steps', { timeout: 300_000 }, async () => {
    const report = await explore({ ...client(), runs: 15, seed: 5000, steps: 20 });
    expect(report.failure).toBeUndefined();
    // It met the faults explore draws, and the coverage map says what it did next.
    const shapes = report.coverage.map((row) => row.shape);
    expect(shapes.some((s) => s.startsWith('ambiguous commit'))).toBe(true);
    expect(report.coverage.every((row) => row.met === Object.values(row.then).reduce((a, b) => a + b, 0))).toBe(true);
  });
});
