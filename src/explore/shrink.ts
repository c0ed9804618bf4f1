import type { FindingKind } from './findings.js';
import type { RunResult } from './run-schedule.js';
import type { Step } from './schedule.js';
import { faultName } from './schedule-draw.js';

type PassStep = Extract<Step, { pass: unknown }>;

/** Runs a candidate schedule from a fresh start. */
export type Attempt = (steps: Step[]) => Promise<RunResult>;

export interface Shrunk {
  steps: Step[];
  result: RunResult;
  /** How many candidate runs it took. */
  tries: number;
}

/**
 * Reduces a failing schedule while a finding of the same kind persists: drops chunks of steps, halving the
 * chunk until single steps (a 1-minimal schedule: no one step can go), then each pass's faults and changes
 * one by one. Steps are replayed as they were drawn; one that no longer applies (its file is not there) is a
 * no-op of that run.
 */
export async function shrink(
  steps: Step[],
  failing: RunResult,
  kind: FindingKind,
  attempt: Attempt,
  onTry: (size: number, tries: number) => void = () => undefined,
): Promise<Shrunk> {
  let best = { steps, result: failing };
  let tries = 0;
  const fails = async (candidate: Step[]): Promise<boolean> => {
    tries++;
    onTry(candidate.length, tries);
    const result = await attempt(candidate);
    if (!result.findings.some((f) => f.kind === kind)) return false;
    best = { steps: candidate, result };
    return true;
  };

  const dropSteps = async (): Promise<boolean> => {
    let dropped = false;
    for (let chunk = Math.ceil(best.steps.length / 2); chunk >= 1; chunk = Math.floor(chunk / 2)) {
      for (let at = 0; at < best.steps.length && best.steps.length > 1; ) {
        const candidate = [...best.steps.slice(0, at), ...best.steps.slice(at + chunk)];
        if (await fails(candidate)) dropped = true;
        else at += chunk;
      }
    }
    return dropped;
  };
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

  await dropSteps();
  // A simpler fault may let more steps go (an upload that only the 2nd PUT's fault needed).
  for (let round = 0; round < 3 && (await simplify()) && (await dropSteps()); round++);
  return { ...best, tries };
}
