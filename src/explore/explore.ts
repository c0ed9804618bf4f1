import { rm, readdir } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { writeWholeFile } from '../files/whole-file.js';
import { connectMock } from '../remote/connect-mock.js';
import { startMock, type RunningMock } from '../server.js';
import type { ScenarioDefinition } from '../scenarios/types.js';
import type { SyncClient } from './client-pass.js';
import { CoverageMap, type CoverageRow } from './coverage.js';
import type { Finding, FindingKind } from '../converge/findings.js';
import { checkBundle, readBundle, REPRO_FORMAT, type ReproBundle } from './repro-bundle.js';
import {
  checkStepsOnMock,
  clearFolder,
  runSchedule,
  type RunResult,
  type RunSetup,
  type StepSource,
} from './run-schedule.js';
import { drawStep } from './schedule-draw.js';
import { MAX_STEPS, STEP_KINDS, type Step, type StepKind } from './schedule.js';
import { SeededRandom } from './seeded-random.js';
import { seedPaths, shrink, type Shrunk } from './shrink.js';

export interface ExploreOptions {
  /** A shell command (one pass, then exit) or a function doing one pass. */
  client: SyncClient;
  /** The folder the client keeps in sync: empty or new (explore clears it between runs, and at the end). */
  dir: string;
  /** How many runs (default 10; with `replay`, how many times the bundle's schedule is run, default 1). */
  runs?: number;
  /** The first run's seed (run k draws from seed + k); default a random one, reported. */
  seed?: number;
  /** Steps in a run (default 20). */
  steps?: number;
  /** The scenario whose seed a run starts from (a name, a path or inline; default the demo tree). */
  scenario?: string | ScenarioDefinition;
  /** The login the client uses (default demo / demo). */
  user?: string;
  password?: string;
  /** What a schedule draws (default all): faults, local edits, second-device changes, clock jumps. */
  kinds?: readonly StepKind[];
  /** The client's own state (a file or folder beside the sync folder), cleared with it before each run. */
  clientState?: string;
  /** A pass still running after this is killed and reported (default 60000). */
  passTimeoutMs?: number;
  /** Shrink a failing schedule (default true). */
  shrink?: boolean;
  /** Rerun a repro bundle's schedule (a bundle or its file) instead of drawing schedules. */
  replay?: ReproBundle | string;
  /** Where relative paths (a scenario file) resolve; default the current folder. */
  baseDir?: string;
  /** Called as runs and shrinking go (the CLI's progress line). */
  onProgress?: (progress: ExploreProgress) => void;
}

export interface ExploreProgress {
  run: number;
  runs: number;
  /** The steps of the run done so far, of how many. */
  step: number;
  steps: number;
  /** Findings so far (with `replay`: runs that found the bundle's kind). */
  findings: number;
  /** While shrinking: the size of the schedule being tried, and how many tries so far. */
  shrinking?: { steps: number; tries: number };
}

export interface ExploreFailure {
  /** The run (1-based) and its seed. */
  run: number;
  seed: number;
  kind: FindingKind;
  /** The schedule as drawn, and as shrunk (the same when not shrunk). */
  steps: Step[];
  shrunk: Step[];
  /** The findings of the shrunk schedule's run. */
  findings: Finding[];
  /** What a step of the shrunk schedule could not do, by step number. */
  notes: Array<string | undefined>;
  /** Entries (files and folders) of the user's seed tree, as drawn and as shrunk. */
  seedEntries: { drawn: number; shrunk: number };
  shrinkRuns: number;
  shrinkMs: number;
}

export interface ExploreReport {
  seed: number;
  runs: number;
  steps: number;
  /** With `replay`: how many runs found a finding of the bundle's kind. */
  reproduced?: number;
  failure?: ExploreFailure;
  bundle?: ReproBundle;
  coverage: CoverageRow[];
  /** Wall time in all, in the client's passes, and shrinking (explore's own time is total less client). */
  timings: { totalMs: number; clientMs: number; shrinkMs: number };
}

const START_TIME = '2025-01-01T00:00:00.000Z';
/** A day: a pass longer than that is a hung client. */
export const MAX_PASS_MS = 86_400_000;

/** The folder must be inside the filesystem but not hold the current folder, and be empty or new. */
async function checkFolder(dir: string): Promise<void> {
  const cwd = process.cwd();
  if (dir === sep || cwd === dir || cwd.startsWith(dir.endsWith(sep) ? dir : dir + sep))
    throw new Error(
      `explore: --dir ${dir} holds the current folder; explore clears its folder between runs: give an empty or new folder`,
    );
  const names = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw new Error(`explore: --dir ${dir}: ${err.code ?? err.message}`);
  });
  if (names.length > 0)
    throw new Error(
      `explore: --dir ${dir} is not empty; explore clears its folder between runs: give an empty or new folder`,
    );
}

/** The start every run goes back to: the scenario's seed (contents inline) and a frozen clock. */
async function startOf(mock: RunningMock): Promise<ScenarioDefinition> {
  const remote = connectMock(mock.url, { adminToken: mock.options.adminToken });
  const seeded = await remote.seed();
  await remote.close();
  const clock = mock.scenario.clock ?? { frozen: START_TIME };
  return { name: 'explore-start', seed: seeded.seed, clock };
}

/**
 * Drives a sync client through seeded schedules of faults, local edits, second-device changes and clock
 * jumps against a mock of its own, checks each run's end state (the oracle: divergence, loss, duplicates,
 * audit errors, client failures), and shrinks the first failing schedule to a repro bundle.
 */
export async function explore(options: ExploreOptions): Promise<ExploreReport> {
  const given = options as ExploreOptions & { url?: unknown; mock?: unknown };
  if (given.url !== undefined || given.mock !== undefined)
    throw new Error(
      'explore starts a mock of its own (its clock and scenario belong to the run): it takes no url or mock',
    );
  const began = performance.now();
  const dir = resolve(options.dir);
  await checkFolder(dir);
  const bundle =
    typeof options.replay === 'string'
      ? await readBundle(resolve(options.baseDir ?? '.', options.replay))
      : options.replay && checkBundle(options.replay, 'replay');
  const user = bundle?.user ?? options.user ?? 'demo';
  const password = options.password ?? (options.user === undefined ? 'demo' : '');
  const kinds = options.kinds ?? STEP_KINDS;
  for (const kind of kinds)
    if (!STEP_KINDS.includes(kind)) throw new Error(`kinds: "${kind}" is not one of ${STEP_KINDS.join(', ')}`);
  const count = options.runs ?? (bundle ? 1 : 10);
  const stepCount = options.steps ?? 20;
  const passTimeoutMs = options.passTimeoutMs ?? 60_000;
  for (const [name, value, max] of [
    ['runs', count, 100_000],
    ['steps', stepCount, MAX_STEPS],
    // setTimeout takes at most 2^31-1 ms and fires at once past it.
    ['passTimeoutMs', passTimeoutMs, MAX_PASS_MS],
  ] as const)
    if (!Number.isSafeInteger(value) || value < 1 || value > max)
      throw new Error(`${name} must be a whole number from 1 to ${max}, got ${value}`);
  const seed = bundle?.seed ?? options.seed ?? Math.floor(Math.random() * 2 ** 31);
  if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`seed must be a whole number >= 0, got ${seed}`);

  const mock = await startMock({
    users: { [user]: password },
    scenario: bundle?.start ?? options.scenario ?? 'default',
    clock: { frozen: START_TIME },
    journalSize: 100_000,
    baseDir: options.baseDir,
  });
  const coverage = new CoverageMap();
  let clientMs = 0;
  let shrinkMs = 0;
  try {
    const start = bundle?.start ?? (await startOf(mock));
    const setup: RunSetup = {
      mock,
      user,
      password,
      dir,
      client: options.client,
      clientState: options.clientState === undefined ? undefined : resolve(options.clientState),
      passTimeoutMs,
      start,
      startTime: Date.parse(await mock.clock.now().then((d) => d.toISOString())),
    };
    let found = 0;
    let shrinking: ExploreProgress['shrinking'];
    const progress = (p: Pick<ExploreProgress, 'run' | 'step' | 'steps'>): void =>
      options.onProgress?.({ ...p, runs: count, findings: found, ...(shrinking && { shrinking }) });
    const counted = async (run: number, source: StepSource | Step[], start = setup.start): Promise<RunResult> => {
      const next: StepSource = typeof source === 'function' ? source : (index) => source[index];
      const total = typeof source === 'function' ? stepCount : source.length;
      const result = await runSchedule({ ...setup, start }, (index, standing) => {
        progress({ run, step: index, steps: total });
        return next(index, standing);
      });
      clientMs += result.clientMs;
      return result;
    };
    const report = (extra: Partial<ExploreReport>): ExploreReport => ({
      seed,
      runs: count,
      steps: bundle ? bundle.steps.length : stepCount,
      coverage: coverage.rows,
      timings: { totalMs: performance.now() - began, clientMs, shrinkMs },
      ...extra,
    });
    const seedEntries = (scenario: ScenarioDefinition): number => {
      const tree = scenario.seed?.trees?.[user];
      return Array.isArray(tree) ? seedPaths(tree).length : 0;
    };
    const failureOf = (
      run: number,
      runSeed: number,
      kind: FindingKind,
      drawn: Step[],
      shrunk: Shrunk,
      ms = 0,
    ): ExploreFailure => ({
      run,
      seed: runSeed,
      kind,
      steps: drawn,
      shrunk: shrunk.steps,
      findings: shrunk.result.findings,
      notes: shrunk.result.notes,
      seedEntries: { drawn: seedEntries(start), shrunk: seedEntries(shrunk.start) },
      shrinkRuns: shrunk.tries,
      shrinkMs: ms,
    });

    if (bundle) {
      await checkStepsOnMock(setup, bundle.steps);
      let last: RunResult | undefined;
      for (let run = 1; run <= count; run++) {
        last = await counted(run, bundle.steps);
        coverage.add(last, user);
        if (last.findings.some((f) => f.kind === bundle.finding.kind)) found++;
      }
      const failure = last!.findings.length
        ? failureOf(bundle.run, seed, last!.findings[0]!.kind, bundle.steps, { ...bundle, result: last!, tries: 0 })
        : undefined;
      return report({ reproduced: found, failure, bundle });
    }

    for (let run = 1; run <= count; run++) {
      const runSeed = seed + run - 1;
      const random = new SeededRandom(runSeed);
      const result = await counted(run, (index, standing) =>
        index >= stepCount ? undefined : drawStep({ random, kinds, step: index + 1, seed: runSeed, ...standing }),
      );
      coverage.add(result, user);
      if (result.findings.length === 0) continue;
      found = result.findings.length;
      const kind = result.findings[0]!.kind;
      const shrinkStart = performance.now();
      const failing = { steps: result.steps, start, result };
      const shrunk =
        options.shrink === false
          ? { ...failing, tries: 0 }
          : await shrink(
              failing,
              user,
              kind,
              (steps, from) => counted(run, steps, from),
              (size, tries) => void (shrinking = { steps: size, tries }),
            );
      shrinkMs = performance.now() - shrinkStart;
      const failure = failureOf(run, runSeed, kind, result.steps, shrunk, shrinkMs);
      const repro: ReproBundle = {
        format: REPRO_FORMAT,
        seed: runSeed,
        run,
        user,
        start: shrunk.start,
        steps: shrunk.steps,
        finding: shrunk.result.findings.find((f) => f.kind === kind)!,
        findings: shrunk.result.findings,
        coverage: coverage.rows,
        journal: shrunk.result.journal,
      };
      return report({ failure, bundle: repro });
    }
    return report({});
  } finally {
    await mock.close();
    await clearFolder(dir).catch(() => undefined);
    if (options.clientState)
      await rm(resolve(options.clientState), { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Writes a bundle whole or not at all (JSON, two-space indent, private to the user); an error names the file. */
export async function writeBundle(file: string, bundle: ReproBundle): Promise<void> {
  try {
    await writeWholeFile(file, (put) => put(`${JSON.stringify(bundle, null, 2)}\n`));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOSPC' ? 'the disk is full' : (code ?? (err as Error).message);
    throw new Error(`explore: cannot write the repro file ${file} (${why}); nothing was written`);
  }
}
