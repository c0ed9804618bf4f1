import type { FindingKind } from '../converge/findings.js';
import type { ScenarioDefinition, SeedNode } from '../scenarios/types.js';
import type { RunResult } from './run-schedule.js';
import type { Step } from './schedule.js';
import { faultName } from './schedule-draw.js';

type PassStep = Extract<Step, { pass: unknown }>;

/** Runs a candidate schedule from a fresh start. */
export type Attempt = (steps: Step[], start: ScenarioDefinition) => Promise<RunResult>;

export interface Shrunk {
  steps: Step[];
  start: ScenarioDefinition;
  result: RunResult;
  /** How many candidate runs it took. */
  tries: number;
}

/** Each try is a whole run: a seed larger than this is kept whole. */
const MAX_SEED_ENTRIES = 200;

/** The paths of a seed tree's entries, folders before what they hold. */
export function seedPaths(nodes: readonly SeedNode[], parent = ''): string[] {
  return nodes.flatMap((n) => {
    const path = `${parent}/${n.container ?? n.file}`;
    return [path, ...(n.children ? seedPaths(n.children, path) : [])];
  });
}

function keepOnly(nodes: readonly SeedNode[], kept: ReadonlySet<string>, parent = ''): SeedNode[] {
  return nodes.flatMap((n) => {
    const path = `${parent}/${n.container ?? n.file}`;
    if (!kept.has(path)) return [];
    return [n.children ? { ...n, children: keepOnly(n.children, kept, path) } : n];
  });
}

/** Removes chunks of `items`, halving the chunk down to one, while `fails` holds without them (ddmin). */
async function dropChunks<T>(items: T[], min: number, fails: (kept: T[]) => Promise<boolean>): Promise<boolean> {
  let dropped = false;
  for (let chunk = Math.ceil(items.length / 2); chunk >= 1; chunk = Math.floor(chunk / 2)) {
    for (let at = 0; at < items.length && items.length > min; ) {
      const candidate = [...items.slice(0, at), ...items.slice(at + chunk)];
      if (await fails(candidate)) {
        items = candidate;
        dropped = true;
      } else at += chunk;
    }
  }
  return dropped;
}

/**
 * Reduces a failing schedule while a finding of the same kind persists: drops chunks of steps down to single
 * steps (a 1-minimal schedule), simplifies each pass's faults and changes, then drops entries of the user's
 * seed tree (fewer files to read in the repro). Steps are replayed as they were drawn; one that no longer
 * applies (its file is not there) is a no-op of that run.
 */
export async function shrink(
  failing: { steps: Step[]; start: ScenarioDefinition; result: RunResult },
  user: string,
  kind: FindingKind,
  attempt: Attempt,
  onTry: (size: number, tries: number) => void = () => undefined,
): Promise<Shrunk> {
  let best = failing;
  let tries = 0;
  const fails = async (steps: Step[], start = best.start): Promise<boolean> => {
    tries++;
    onTry(steps.length, tries);
    const result = await attempt(steps, start);
    if (!result.findings.some((f) => f.kind === kind)) return false;
    best = { steps, start, result };
    return true;
  };

  const dropSteps = (): Promise<boolean> => dropChunks(best.steps, 1, (steps) => fails(steps));
  const replaced = (i: number, pass: PassStep['pass']): Step[] => [
    ...best.steps.slice(0, i),
    { pass },
    ...best.steps.slice(i + 1),
  ];
  /** Each fault and triggered change of a pass alone, then aimed at an earlier request (the 1st PUT, not the 3rd). */
  const simplify = async (): Promise<boolean> => {
    let simpler = false;
    for (let i = 0; i < best.steps.length; i++) {
      for (const list of ['faults', 'changes'] as const) {
        for (let j = ((best.steps[i] as PassStep).pass?.[list]?.length ?? 0) - 1; j >= 0; j--) {
          const { pass } = best.steps[i] as PassStep;
          if (
            pass[list]!.length > 1 &&
            (await fails(replaced(i, { ...pass, [list]: pass[list]!.filter((_, k) => k !== j) })))
          )
            simpler = true;
        }
      }
      const step = best.steps[i]!;
      if (!('pass' in step)) continue;
      for (const [j, rule] of (step.pass.faults ?? []).entries()) {
        if (!rule.after) continue;
        const earlier = { ...rule, after: rule.after - 1 };
        const faults = step.pass.faults!.map((r, k) => (k === j ? { ...earlier, name: faultName(earlier) } : r));
        if (await fails(replaced(i, { ...step.pass, faults }))) simpler = true;
      }
      for (const [j, change] of ((best.steps[i] as PassStep).pass.changes ?? []).entries()) {
        const trigger = change.trigger;
        if (!trigger || !('match' in trigger) || (trigger.nth ?? 1) <= 1) continue;
        const { pass } = best.steps[i] as PassStep;
        const changes = pass.changes!.map((c, k) =>
          k === j ? { ...c, trigger: { ...trigger, nth: (trigger.nth ?? 1) - 1 } } : c,
        );
        if (await fails(replaced(i, { ...pass, changes }))) simpler = true;
      }
    }
    return simpler;
  };
  const dropSeed = async (): Promise<void> => {
    const seed = best.start.seed;
    const tree = seed?.trees?.[user];
    if (!seed || !Array.isArray(tree)) return;
    const paths = seedPaths(tree);
    if (paths.length > MAX_SEED_ENTRIES) return;
    await dropChunks(paths, 0, (kept) =>
      fails(best.steps, {
        ...best.start,
        seed: { ...seed, trees: { ...seed.trees, [user]: keepOnly(tree, new Set(kept)) } },
      }),
    );
  };

  await dropSteps();
  // A simpler fault may let more steps go (an upload that only the 2nd PUT's fault needed).
  for (let round = 0; round < 3 && (await simplify()) && (await dropSteps()); round++);
  await dropSeed();
  return { ...best, tries };
}
