/** How long a switch or reset waits for requests in flight before closing their connections. */
export const DEFAULT_SWITCH_GRACE_MS = 5_000;
/** After closing them, how long it waits for their handlers to notice before going on regardless. */
const ABORT_SETTLE_MS = 250;

/**
 * Makes a scenario switch atomic: requests enter freely, a switch waits until the requests in
 * flight have finished and holds new ones back until it is done, so a request runs wholly under
 * the old scenario (and state) or wholly under the new one. The wait is bounded: a request still
 * in flight after the grace period (a stalled upload, an unread download) has its connection
 * closed, so one client can never hold the switch, or everyone behind it, for longer.
 */
export class SwitchGate {
  readonly #graceMs: number;
  readonly #inFlight = new Set<() => void>();
  #drained: (() => void)[] = [];
  #switching: Promise<void> | undefined;

  constructor(graceMs = DEFAULT_SWITCH_GRACE_MS) {
    this.#graceMs = graceMs;
  }

  /**
   * Waits for any switch under way, then counts the request in; `abort` closes its connection if
   * a switch gives up waiting for it. Call the returned function once the request ends.
   */
  async enter(abort: () => void): Promise<() => void> {
    while (this.#switching) await this.#switching;
    const entry = (): void => abort();
    this.#inFlight.add(entry);
    return () => {
      if (!this.#inFlight.delete(entry)) return;
      if (this.#inFlight.size === 0) for (const resolve of this.#drained.splice(0)) resolve();
    };
  }

  /** Runs `change` with no request in flight (or the stragglers aborted) and none admitted until it settles. */
  async exclusive<T>(change: () => Promise<T>): Promise<T> {
    while (this.#switching) await this.#switching;
    let release!: () => void;
    this.#switching = new Promise<void>((resolve) => (release = resolve));
    try {
      if (!(await this.#drain(this.#graceMs))) {
        for (const abort of [...this.#inFlight]) abort();
        await this.#drain(ABORT_SETTLE_MS);
      }
      return await change();
    } finally {
      this.#switching = undefined;
      release();
    }
  }

  /** True once no request is in flight, false if `ms` pass first. */
  #drain(ms: number): Promise<boolean> {
    if (this.#inFlight.size === 0) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const onDrained = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.#drained = this.#drained.filter((d) => d !== onDrained);
        resolve(false);
      }, ms);
      this.#drained.push(onDrained);
    });
  }
}
