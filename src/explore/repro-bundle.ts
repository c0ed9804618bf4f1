import { stat } from 'node:fs/promises';
import { readContainedFile } from '../files/contained-file.js';
import type { JournalEntry } from '../http/journal.js';
import type { ScenarioDefinition } from '../scenarios/types.js';
import { FINDING_KINDS, type Finding } from '../converge/findings.js';
import type { CoverageRow } from './coverage.js';
import { checkSchedule, isObject, ScheduleError, type Step } from './schedule.js';

export const REPRO_FORMAT = 'csp-mock-explore-repro/1';
/** A bundle is a seed tree, a few steps and one run's journal: kilobytes (the rclone one is 61 KB). */
const MAX_BUNDLE_BYTES = 16 * 1024 * 1024;
/** JSON.parse takes seconds on megabytes of "[[[[" and JSON.stringify overflows the stack on them. */
const MAX_DEPTH = 200;

/**
 * The file a developer attaches to a bug report: the state the run starts from, the minimal schedule, what
 * it found, and the journal of the failing run. No password is in it (the start is the state's seed, which
 * carries no logins' passwords).
 */
export interface ReproBundle {
  format: typeof REPRO_FORMAT;
  /** The seed of the run that failed, and its number among the runs. */
  seed: number;
  run: number;
  /** Whose tree the folder mirrors. */
  user: string;
  /** The scenario a run starts from: the seed tree (contents inline) and the clock. */
  start: ScenarioDefinition;
  steps: Step[];
  /** The finding the schedule was shrunk for, and all the findings of its last run. */
  finding: Finding;
  findings: Finding[];
  /** The coverage map of the runs up to the failing one. */
  coverage?: CoverageRow[];
  journal: JournalEntry[];
}

/** Checks a bundle's fields (the steps as a schedule); throws ScheduleError naming the file and the field. */
export function checkBundle(value: unknown, file: string): ReproBundle {
  const fail = (field: string, problem: string): never => {
    throw new ScheduleError(`${file}: ${field}: ${problem}`);
  };
  if (!isObject(value)) return fail('(top)', 'must be an object (a repro bundle written by csp-mock explore --out)');
  if (value['format'] !== REPRO_FORMAT) fail('format', `must be "${REPRO_FORMAT}"`);
  for (const field of ['seed', 'run'] as const)
    if (!Number.isSafeInteger(value[field]) || (value[field] as number) < 0) fail(field, 'must be a whole number >= 0');
  if (typeof value['user'] !== 'string' || !/^[A-Za-z0-9._-]{1,64}$/.test(value['user']))
    fail('user', 'must be a login name');
  if (!isObject(value['start'])) fail('start', 'must be a scenario (an object with a seed)');
  try {
    checkSchedule(value['steps']);
  } catch (err) {
    const message = (err as Error).message;
    fail(message.slice(0, message.indexOf(': ')), message.slice(message.indexOf(': ') + 2));
  }
  const finding = value['finding'];
  if (!isObject(finding) || !FINDING_KINDS.includes(finding['kind'] as Finding['kind']))
    fail('finding.kind', `must be one of ${FINDING_KINDS.join(', ')}`);
  if (!Array.isArray(value['findings'])) fail('findings', 'must be a list');
  if (!Array.isArray(value['journal'])) fail('journal', 'must be a list');
  if (value['coverage'] !== undefined && !Array.isArray(value['coverage'])) fail('coverage', 'must be a list');
  return value as unknown as ReproBundle;
}

/** The deepest nesting of objects and arrays in JSON text, stopping once past `limit` (strings skipped). */
function nestingOver(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Reads and checks a bundle file: one line naming the file and the field when it is not one. */
export async function readBundle(file: string): Promise<ReproBundle> {
  let text: string;
  try {
    const { size } = await stat(file);
    if (size > MAX_BUNDLE_BYTES)
      throw new ScheduleError(`${file}: ${size} bytes, larger than a repro bundle may be (${MAX_BUNDLE_BYTES})`);
    text = (await readContainedFile(file, { maxBytes: MAX_BUNDLE_BYTES })).toString('utf8');
  } catch (err) {
    if (err instanceof ScheduleError) throw err;
    throw new ScheduleError(
      `${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  if (nestingOver(text, MAX_DEPTH))
    throw new ScheduleError(`${file}: nested deeper than ${MAX_DEPTH} levels: not a repro bundle`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ScheduleError(`${file}: not JSON (${(err as Error).message})`);
  }
  return checkBundle(parsed, file);
}
