// `npm run bench -- explore`: issue 35's targets. Explore's own time in a 20-step run of a client that takes
// 100 ms a pass; shrinking a 20-step failure; a bundle replayed 10 times; the correct client over 100 runs.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { explore, type ExploreOptions } from 'csp-mock';
import { syncPass, type PlantedBug } from '../support/sync-clients/dav-sync.js';

export interface ExploreBenchSizes {
  /** Runs of the correct client (the issue: no finding over 100). */
  runs: number;
  /** Steps of a run. */
  steps: number;
  /** The pass time added to the client (the issue: 100 ms). */
  passMs: number;
  /** Runs searched for the planted bug before shrinking it. */
  search: number;
}

export interface ExploreBench {
  /** One run: in all, in the client's passes, and the rest (explore's own), ms. */
  run: { totalMs: number; clientMs: number; ownMs: number };
  /** The planted blind-create-retry bug: steps drawn, steps shrunk, shrinking ms, tries. */
  shrink: { from: number; to: number; ms: number; tries: number } | undefined;
  /** Runs of the replayed bundle that found its finding's kind, of 10. */
  replayed: number;
  /** The correct client: runs, findings, ms in all. */
  correct: { runs: number; found: boolean; ms: number };
}

async function inFolder<T>(work: (root: string) => Promise<T>): Promise<T> {
  const root = await mkdtemp(join(tmpdir(), 'csp-mock-bench-explore-'));
  try {
    return await work(root);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** The test sync client, its state beside the folder, each pass taking at least `passMs`. */
function client(
  root: string,
  passMs: number,
  bug?: PlantedBug,
): Pick<ExploreOptions, 'client' | 'clientState' | 'dir'> {
  const stateFile = join(root, 'client-state.json');
  return {
    client: async (pass) => {
      await Promise.all([syncPass(pass, { stateFile, bug }), sleep(passMs)]);
    },
    clientState: stateFile,
    dir: join(root, 'sync'),
  };
}

export async function measureExplore(sizes: ExploreBenchSizes): Promise<ExploreBench> {
  const run = await inFolder(async (root) => {
    const report = await explore({ ...client(root, sizes.passMs), runs: 1, seed: 7, steps: sizes.steps });
    const { totalMs, clientMs } = report.timings;
    return { totalMs, clientMs, ownMs: totalMs - clientMs };
  });
  const { shrink, replayed } = await inFolder(async (root) => {
    const found = await explore({
      ...client(root, 0, 'blind-create-retry'),
      runs: sizes.search,
      seed: 1,
      steps: sizes.steps,
    });
    if (!found.failure || !found.bundle) return { shrink: undefined, replayed: 0 };
    const again = await explore({ ...client(root, 0, 'blind-create-retry'), replay: found.bundle, runs: 10 });
    const { steps, shrunk, shrinkMs, shrinkRuns } = found.failure;
    return {
      shrink: { from: steps.length, to: shrunk.length, ms: shrinkMs, tries: shrinkRuns },
      replayed: again.reproduced ?? 0,
    };
  });
  const correct = await inFolder(async (root) => {
    const began = performance.now();
    const report = await explore({ ...client(root, 0), runs: sizes.runs, seed: 5000, steps: sizes.steps });
    return { runs: sizes.runs, found: report.failure !== undefined, ms: performance.now() - began };
  });
  return { run, shrink, replayed, correct };
}

const goal = (met: boolean): string => (met ? 'met' : 'NOT met');
const row = (name: string, value: string, goalText = '', met?: boolean): string =>
  `${name.padEnd(58)}${value.padStart(12)}${goalText ? `   goal ${goalText.padEnd(10)} ${goal(met!)}` : ''}`;

export function formatExploreBench(b: ExploreBench, sizes: ExploreBenchSizes): string {
  const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
  return [
    `explore (issue 35): ${sizes.steps} steps a run`,
    row(`one run, client ${sizes.passMs} ms a pass: in all`, s(b.run.totalMs)),
    row('  in the client', s(b.run.clientMs)),
    row("  explore's own", s(b.run.ownMs), '<= 5 s', b.run.ownMs <= 5000),
    b.shrink
      ? row(
          `shrinking a ${b.shrink.from}-step failure to ${b.shrink.to} (${b.shrink.tries} runs)`,
          s(b.shrink.ms),
          '<= 60 s',
          b.shrink.ms <= 60_000,
        )
      : 'shrinking: the planted bug was not found',
    row('replay of its bundle: runs finding it', `${b.replayed} of 10`, '10 of 10', b.replayed === 10),
    row(
      `the correct client, ${b.correct.runs} runs: ${b.correct.found ? 'a finding' : 'no finding'}`,
      s(b.correct.ms),
      'no finding',
      !b.correct.found,
    ),
  ].join('\n');
}
