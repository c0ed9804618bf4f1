import type { Progress } from '../index.js';
import type { CliContext } from './context.js';

/** Where the line goes: stderr, or a test's fake. */
export interface ProgressOutput {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

export interface ProgressLineOptions {
  /** Milliseconds, for the rate and the throttle (default Date.now; tests pass their own). */
  now?: () => number;
  /** The least time between two redraws (default 200 ms: at most five a second). */
  everyMs?: number;
}

/** Erases the terminal line the cursor is on and returns to its start. */
const REWRITE = '\r\x1b[K';

const WORDS: Record<Progress['task'], { doing: string; done: string }> = {
  generate: { doing: 'generating accounts', done: 'generated' },
  load: { doing: 'reading the state file', done: 'read the state file' },
  verify: { doing: 'verifying', done: 'verified' },
  'import-har': { doing: 'importing', done: 'imported' },
};

/** A count as the line shows it: bytes in MiB, anything else whole, with thousands separators. */
const figure = (n: number, unit: Progress['unit']): string =>
  unit === 'bytes' ? (n / 2 ** 20).toFixed(1) : Math.round(n).toLocaleString('en-US');
const label = (unit: Progress['unit']): string => (unit === 'bytes' ? 'MiB' : unit);

/**
 * Draws `Progress` reports as one line on a terminal, rewritten in place (a carriage return and an erase)
 * at most once per `everyMs`, then a last line with the total, the time and the rate. On anything but a
 * terminal it writes nothing, as git does for its progress (a log or a pipe gets no carriage returns).
 * Reading the clock on each report is all the throttle needs: no timer keeps the process alive.
 */
export class ProgressLine {
  readonly #out: ProgressOutput;
  readonly #now: () => number;
  readonly #everyMs: number;
  /** The task drawn now, when it started, and when it was last drawn. */
  #task: { name: Progress['task']; started: number; drawn: number } | undefined;

  constructor(out: ProgressOutput, options: ProgressLineOptions = {}) {
    this.#out = out;
    this.#now = options.now ?? Date.now;
    this.#everyMs = options.everyMs ?? 200;
  }

  /** Takes a report: draws it if the line is due, ends the line on the task's last report. */
  report(progress: Progress): void {
    if (!this.#out.isTTY) return;
    const now = this.#now();
    let task = this.#task;
    if (progress.finished) {
      // A task that never drew a line (it was small) ends without one.
      if (task?.name === progress.task) {
        this.#out.write(`${REWRITE}${this.#finalText(progress, now - task.started)}\n`);
        this.#task = undefined;
      }
      return;
    }
    if (!task || task.name !== progress.task) {
      task = { name: progress.task, started: now, drawn: -Infinity };
      this.#task = task;
    }
    if (now - task.drawn < this.#everyMs) return;
    task.drawn = now;
    this.#out.write(REWRITE + this.#text(progress, now - task.started));
  }

  #text(p: Progress, elapsedMs: number): string {
    const share = p.total > 0 ? ` (${Math.floor((p.done / p.total) * 100)}%)` : '';
    const counts = `${figure(p.done, p.unit)} of ${figure(p.total, p.unit)} ${label(p.unit)}`;
    return `csp-mock: ${WORDS[p.task].doing}: ${counts}${share}${rateOf(p, elapsedMs)}`;
  }

  #finalText(p: Progress, elapsedMs: number): string {
    const counts = `${figure(p.done, p.unit)} ${label(p.unit)}`;
    return `csp-mock: ${WORDS[p.task].done} ${counts} in ${(elapsedMs / 1000).toFixed(1)} s${rateOf(p, elapsedMs)}`;
  }
}

/** ", 1,234 objects/s" once time has passed. */
function rateOf(p: Progress, elapsedMs: number): string {
  return elapsedMs > 0 ? `, ${figure((p.done * 1000) / elapsedMs, p.unit)} ${label(p.unit)}/s` : '';
}

/**
 * The `onProgress` of a command: a line where the context draws progress (stderr, when it is a terminal);
 * nothing under --quiet or --log-format json (whoever reads JSON lines is a program, and a line drawn beside
 * them only gets in the way).
 */
export function progressTo(
  cli: CliContext,
  args: { quiet?: boolean; 'log-format'?: string },
): ((progress: Progress) => void) | undefined {
  const out = cli.progressTo;
  if (args.quiet || args['log-format'] === 'json' || !out?.isTTY) return undefined;
  const line = new ProgressLine(out);
  return (progress) => line.report(progress);
}
