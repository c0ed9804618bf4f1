import type { Request, Response } from 'express';
import { onServiceAnswer } from '../http/answer-writer.js';
import type { DeviceChange, FaultMatch } from '../scenarios/types.js';
import { compileMatch, type RequestPredicate } from '../scenarios/request-match.js';

/** Runs one change (queued, journaled, never throwing). */
export type RunChange = (change: DeviceChange, trigger: string) => Promise<unknown>;

interface RequestTrigger {
  change: DeviceChange;
  matches: RequestPredicate;
  nth: number;
  seen: number;
  described: string;
}

const ordinal = (n: number): string => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
};

function describeMatch(match: FaultMatch): string {
  const methods = Array.isArray(match.method) ? match.method.join('|') : match.method;
  return `${methods.toUpperCase()} ${match.path}`;
}

/**
 * A scenario's triggered changes, armed: request counters and delay timers, fresh for each start,
 * switch or reset. A request trigger fires once, when the service has handled the nth matching request
 * and before that request's answer goes out, so the client's next request already meets the change.
 */
export class ArmedChanges {
  readonly #requestTriggers: RequestTrigger[] = [];
  readonly #timers: NodeJS.Timeout[] = [];

  constructor(changes: readonly DeviceChange[], run: RunChange) {
    for (const change of changes) {
      const trigger = change.trigger;
      if (!trigger) continue;
      if ('delayMs' in trigger) {
        const timer = setTimeout(
          () => void run(change, `${trigger.delayMs} ms after the scenario started`),
          trigger.delayMs,
        );
        // A mock left open must not keep a test process alive for a change nobody waits for.
        timer.unref();
        this.#timers.push(timer);
      } else {
        const nth = trigger.nth ?? 1;
        this.#requestTriggers.push({
          change,
          matches: compileMatch(trigger.match),
          nth,
          seen: 0,
          described: `the ${ordinal(nth)} request matching ${describeMatch(trigger.match)}`,
        });
      }
    }
    this.#run = run;
  }

  readonly #run: RunChange;

  /** Nothing left to count. */
  get idle(): boolean {
    return this.#requestTriggers.every((t) => t.seen >= t.nth);
  }

  /** Counts a request against each trigger; the ones it completes run before its answer (or when it ends without one). */
  onRequest(req: Request, res: Response): void {
    for (const trigger of this.#requestTriggers) {
      if (trigger.seen >= trigger.nth || !trigger.matches(req)) continue;
      trigger.seen += 1;
      if (trigger.seen < trigger.nth) continue;
      let running: Promise<unknown> | undefined;
      const fire = (): Promise<unknown> =>
        (running ??= this.#run(trigger.change, `${trigger.described} (${req.method} ${req.path})`));
      onServiceAnswer(res, fire);
      res.once('close', () => void fire());
    }
  }

  disarm(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.length = 0;
    for (const trigger of this.#requestTriggers) trigger.seen = trigger.nth;
  }
}
