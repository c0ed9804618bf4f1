import { mkdir, readdir, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { RunningMock } from '../server.js';
import type { JournalEntry } from '../http/journal.js';
import type { DeviceChange, ScenarioDefinition } from '../scenarios/types.js';
import { EARLIEST_MS, LATEST_MS, parseDuration } from '../clock/durations.js';
import { ChangeRefusedError } from '../device/change-refused.js';
import type { Finding } from '../converge/findings.js';
import { runPass, type PassResult, type SyncClient } from './client-pass.js';
import { movedPath, ScheduleError, type Step } from './schedule.js';
import { sha256Of, treeOf, type Tree } from '../converge/trees.js';
import { WriteLedger } from './write-ledger.js';

/** Everything a run needs that stays the same across runs. */
export interface RunSetup {
  /** Explore's own mock: its clock and scenario belong to the run. */
  mock: RunningMock;
  user: string;
  password: string;
  dir: string;
  client: SyncClient;
  /** The client's own state (a database beside the folder), cleared with the folder before each run. */
  clientState?: string;
  passTimeoutMs: number;
  /** The scenario a run starts from: its seed and its clock. */
  start: ScenarioDefinition;
  /** Where the mock's clock stands when a run starts (ms since 1970); every step moves it on a minute. */
  startTime: number;
}

/** The trees as they stand before a step, and the methods the client has used (to draw faults that fire). */
export interface Standing {
  local: Tree;
  remote: Tree;
  methods: ReadonlyMap<string, number>;
}

/** Gives step `index` (0-based), or undefined when the schedule is over. */
export type StepSource = (index: number, standing: Standing) => Step | undefined;

export interface PassRecord {
  /** 0 for the first quiet pass, the step's number for a step's pass, -1, -2, -3 for the closing quiet passes. */
  step: number;
  result: PassResult;
  /** The journal's seq before the pass and after it. */
  from: number;
  to: number;
  /** The user's tree before the pass (a PUT to a path in it overwrites, else creates). */
  remote: Tree;
}

export interface RunResult {
  steps: Step[];
  /** Per step: what happened when it could not apply ("no such file", a refused change). */
  notes: Array<string | undefined>;
  findings: Finding[];
  passes: PassRecord[];
  journal: JournalEntry[];
  /** Milliseconds the client's passes took (explore's own time is the rest). */
  clientMs: number;
}

const STEP_MS = 60_000;

const isoOf = (ms: number): string => new Date(ms).toISOString();

/** Empties `dir` (never anything above it) and makes it if needed. */
export async function clearFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const name of await readdir(dir)) await rm(join(dir, name), { recursive: true, force: true });
}

/** A path of the folder's tree on disk: the tree's paths start with "/" and were checked (schedule.ts). */
const onDisk = (dir: string, path: string): string => join(dir, ...path.slice(1).split('/'));

/** The latest seq in the journal (0 when empty). */
async function lastSeq(mock: RunningMock): Promise<number> {
  return (await mock.requests()).at(-1)?.seq ?? 0;
}

/** Carries out a local edit; returns a note when it could not apply. */
async function applyLocal(
  setup: RunSetup,
  step: Extract<Step, { local: unknown }>,
  time: number,
  standing: Standing,
  ledger: WriteLedger,
  label: string,
): Promise<string | undefined> {
  const edit = step.local;
  const at = (path: string): string => onDisk(setup.dir, path);
  const stamp = (path: string): Promise<void> => utimes(at(path), time / 1000, time / 1000);
  if ('create' in edit || 'modify' in edit) {
    const path = 'create' in edit ? edit.create : edit.modify;
    const entry = standing.local.get(path);
    if ('modify' in edit && entry?.kind !== 'file') return `no file ${path} in the folder`;
    if ('create' in edit && entry) return `${path} is already in the folder`;
    if ('create' in edit && dirname(path) !== '/' && standing.local.get(dirname(path))?.kind !== 'folder')
      return `no folder ${dirname(path)} in the folder`;
    ledger.retired(standing.local, path);
    await writeFile(at(path), edit.text);
    await stamp(path);
    ledger.wrote(path, sha256Of(edit.text), label);
    return undefined;
  }
  if ('delete' in edit) {
    if (!standing.local.has(edit.delete)) return `no ${edit.delete} in the folder`;
    ledger.retired(standing.local, edit.delete);
    await rm(at(edit.delete), { recursive: true, force: true });
    return undefined;
  }
  const from = 'rename' in edit ? edit.rename : edit.move;
  const to = movedPath(from, 'rename' in edit ? 'rename' : 'move', edit.to);
  if (!standing.local.has(from)) return `no ${from} in the folder`;
  if (standing.local.has(to)) return `${to} is already in the folder`;
  if ('move' in edit && edit.to !== '/' && standing.local.get(edit.to)?.kind !== 'folder')
    return `no folder ${edit.to} in the folder`;
  await rename(at(from), at(to));
  ledger.moved(from, to, 'local');
  return undefined;
}

/** What a second-device change retires and writes in the ledger, once it applied. */
function ledgerOfChange(change: DeviceChange, remote: Tree, ledger: WriteLedger, label: string, during = false): void {
  if ('create' in change && change.text !== undefined) ledger.wrote(change.create, sha256Of(change.text), label);
  else if ('overwrite' in change) {
    ledger.retired(remote, change.overwrite);
    ledger.wrote(change.overwrite, sha256Of(change.text ?? Buffer.from(change.base64 ?? '', 'base64')), label);
  } else if ('delete' in change) ledger.retired(remote, change.delete);
  else if ('rename' in change)
    ledger.moved(change.rename, movedPath(change.rename, 'rename', change.to), 'remote', during);
  else if ('move' in change) ledger.moved(change.move, movedPath(change.move, 'move', change.to), 'remote', during);
}

/** The scenario a pass step arms for that pass: its faults, and its triggered changes to `user`'s tree. */
const passScenario = (step: Extract<Step, { pass: unknown }>, user: string, name: string): ScenarioDefinition => ({
  name,
  faults: step.pass.faults ?? [],
  changes: (step.pass.changes ?? []).map((c) => ({ ...c, user })),
});

/**
 * Arms each step's scenario once on the mock (the mock's own loader checks its faults and changes) and
 * throws a ScheduleError-like Error naming `steps[i]`'s field when one is refused. Leaves the start
 * scenario active.
 */
export async function checkStepsOnMock(setup: RunSetup, steps: readonly Step[], field = 'steps'): Promise<void> {
  // Each step moves the clock on a minute, a jump by its duration, the closing passes three minutes more.
  let time = setup.startTime + 3 * STEP_MS;
  for (const [i, step] of steps.entries()) {
    time += STEP_MS + ('clock' in step ? parseDuration(step.clock) : 0);
    if (!(time >= EARLIEST_MS && time <= LATEST_MS))
      throw new ScheduleError(
        `${field}[${i}]${'clock' in step ? `.clock: "${step.clock}"` : ''} takes the mock's clock outside its range (1970 to the end of 9999)`,
      );
  }
  for (const [i, step] of steps.entries()) {
    const scenario: ScenarioDefinition | undefined =
      'pass' in step
        ? passScenario(step, setup.user, 'explore-check')
        : 'device' in step
          ? { name: 'explore-check', changes: [{ ...step.device, user: setup.user, trigger: { delayMs: 86_400_000 } }] }
          : undefined;
    if (!scenario) continue;
    try {
      await setup.mock.useScenario(scenario);
    } catch (err) {
      const e = err as Error & { field?: string };
      const problem = e.field ? e.message.slice(e.message.indexOf(`${e.field}: `) + e.field.length + 2) : e.message;
      const inner = e.field ? `.${e.field.replace(/^changes\[0\]\.?/, '').replace(/^trigger\.?/, '') || ''}` : '';
      const where =
        'pass' in step ? `${field}[${i}].pass${e.field ? `.${e.field}` : ''}` : `${field}[${i}].device${inner}`;
      throw new Error(`${where}: ${problem}`);
    }
  }
  await setup.mock.useScenario(setup.start);
}

/** Runs one schedule from a fresh start: the first quiet pass, the steps, the closing quiet passes, the oracle. */
export async function runSchedule(setup: RunSetup, source: StepSource): Promise<RunResult> {
  const { mock, user } = setup;
  const trees = async (): Promise<{ local: Tree; remote: Tree }> => {
    // A client that removed its folder left it empty, as the oracle sees it.
    await mkdir(setup.dir, { recursive: true });
    const { folder, account } = await mock.converge(setup.dir, { user });
    return { local: treeOf(folder), remote: treeOf(account) };
  };
  const methods = new Map<string, number>();
  const passes: PassRecord[] = [];
  const steps: Step[] = [];
  const notes: Array<string | undefined> = [];
  let clientMs = 0;
  let time = setup.startTime;

  await clearFolder(setup.dir);
  if (setup.clientState) await rm(setup.clientState, { recursive: true, force: true });
  await mock.useScenario(setup.start);
  await mock.reset();
  const firstSeq = await lastSeq(mock);
  const ledger = new WriteLedger((await trees()).remote);

  const pass = async (step: number, scenario: ScenarioDefinition): Promise<PassResult> => {
    const before = (await trees()).remote;
    await mock.useScenario({ ...scenario, clock: { frozen: isoOf(time) } });
    const from = await lastSeq(mock);
    const started = performance.now();
    const result = await runPass(
      setup.client,
      { url: mock.url, user, password: setup.password, dir: setup.dir },
      setup.passTimeoutMs,
    );
    clientMs += performance.now() - started;
    const to = await lastSeq(mock);
    passes.push({ step, result, from, to, remote: before });
    const sent = (await mock.requests({ after: from })).filter((e) => e.user === user && !e.device && e.seq <= to);
    if (sent.length) {
      for (const key of methods.keys()) methods.set(key, 0);
      for (const e of sent) methods.set(e.method, (methods.get(e.method) ?? 0) + 1);
    }
    return result;
  };
  const quiet = { name: 'explore-quiet-pass' };
  const findings: Finding[] = [];
  const quietFailed = (result: PassResult, which: string): void => {
    if (!result.ok)
      findings.push({
        kind: 'client-failure',
        message: `the ${which} (no faults, no edits) failed: ${result.error ?? 'non-zero exit'}`,
        paths: [],
      });
  };

  const first = await pass(0, quiet);
  quietFailed(first, 'first quiet pass');
  if (first.ok) ledger.settled();

  for (let index = 0; ; index++) {
    const standing: Standing = { ...(await trees()), methods };
    const step = source(index, standing);
    if (!step) break;
    time += STEP_MS;
    steps.push(step);
    const label = `step ${index + 1}`;
    let note: string | undefined;
    if ('pass' in step) {
      const result = await pass(index + 1, passScenario(step, user, `explore-step-${index + 1}`));
      // A triggered change the mock applied counts in the ledger as if made now.
      const applied = (await mock.requests({ after: passes.at(-1)!.from })).filter(
        (e) => e.device === 'second' && e.committed,
      );
      // A delete or overwrite fired mid-pass may have hit what the client had just uploaded: that is retired too.
      for (const [i, change] of (step.pass.changes ?? []).entries()) {
        if (!applied[i]) continue;
        const target = 'delete' in change ? change.delete : 'overwrite' in change ? change.overwrite : undefined;
        if (target !== undefined) ledger.retired(standing.local, target);
        ledgerOfChange(change, standing.remote, ledger, `${label}: second device`, true);
      }
      // After the changes made during it: a pass does not carry across what happened while it ran.
      if (result.ok) ledger.settled();
    } else if ('local' in step) {
      note = await applyLocal(setup, step, time, standing, ledger, `${label}: local edit`);
    } else if ('device' in step) {
      await mock.clock.freeze(isoOf(time));
      try {
        await mock.change({ ...step.device, user });
        ledgerOfChange(step.device, standing.remote, ledger, `${label}: second device`);
      } catch (err) {
        if (!(err instanceof ChangeRefusedError)) throw err;
        note = `refused (${err.status}): ${err.message}`;
      }
    } else {
      time += parseDuration(step.clock);
      await mock.clock.freeze(isoOf(time));
    }
    notes.push(note);
  }

  // Quiet passes until a pass changes nothing (at most 3).
  for (let q = 1; q <= 3; q++) {
    time += STEP_MS;
    const before = fingerprint(await trees());
    const result = await pass(-q, quiet);
    quietFailed(result, `closing quiet pass ${q}`);
    if (result.ok) ledger.settled();
    const after = fingerprint(await trees());
    if (result.ok && before === after) break;
  }

  // A client that failed a quiet pass first: what it left behind follows from that.
  findings.push(...(await mock.converge(setup.dir, { user, expected: ledger.expected })).findings);
  const audit = await mock.audit({ rules: ['duplicate-after-ambiguous-commit'], filter: { after: firstSeq } });
  for (const f of audit.findings.filter((a) => a.severity === 'error'))
    findings.push({ kind: 'audit', message: `${f.rule}: ${f.message}`, paths: f.requests.map((r) => r.path) });
  const journal = (await mock.requests({ after: firstSeq })).filter((e) => e.user === user || e.device === 'second');
  return { steps, notes, findings, passes, journal, clientMs };
}

const fingerprint = (trees: { local: Tree; remote: Tree }): string =>
  JSON.stringify([[...trees.local.values()], [...trees.remote.values()]]);
