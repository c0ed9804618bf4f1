import type { Response } from 'express';

/** Delays that end early when the client goes away or the mock closes, so no timer outlives a test. */
export class PendingDelays {
  readonly #pending = new Set<() => void>();

  /** Resolves true after `ms`, or false if the response closed (or the mock stopped) first. */
  wait(ms: number, res: Response): Promise<boolean> {
    if (ms <= 0) return Promise.resolve(!res.closed);
    return new Promise((resolve) => {
      const finish = (completed: boolean): void => {
        clearTimeout(timer);
        res.off('close', cancel);
        this.#pending.delete(cancel);
        resolve(completed && !res.closed);
      };
      const cancel = (): void => finish(false);
      const timer = setTimeout(() => finish(true), ms);
      res.once('close', cancel);
      this.#pending.add(cancel);
    });
  }

  cancelAll(): void {
    for (const cancel of [...this.#pending]) cancel();
  }
}
