/** How long a switch or reset waits for requests in flight before closing their connections. */
const DEFAULT_SWITCH_GRACE_MS = 5_000;
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
  readonly #detached = new Set<() => void>();
  readonly #onSwitch = new Set<() => void>();

  constructor(graceMs = DEFAULT_SWITCH_GRACE_MS) {
    this.#graceMs = graceMs;
  }

  /**
   * Waits for any switch under way, then counts the request in; `abort` closes its connection if
   * a switch gives up waiting for it. Call the returned function once the request ends.
   */
  async enter(abort: () => void): Promise<() => void> {
    while (this.#switching) await this.#switching;
    return this.enterNow(abort)!;
  }

  /** enter() without waiting: the leave function, or undefined while a switch is under way. */
  enterNow(abort: () => void): (() => void) | undefined {
    if (this.#switching) return undefined;
    const entry = (): void => abort();
    this.#inFlight.add(entry);
    return () => {
      if (!this.#inFlight.delete(entry)) return;
      if (this.#inFlight.size === 0) for (const resolve of this.#drained.splice(0)) resolve();
    };
  }

  /**
   * For a request that only holds its connection now (a hang, a stalled upload): it stops counting as
   * in flight, and `end` ends it when the next switch begins. Returns the undo for when it closes first.
   */
  detach(leave: () => void, end: () => void): () => void {
    leave();
    this.#detached.add(end);
    return () => this.#detached.delete(end);
  }

  /** Calls `fn` when the next switch begins (a throttled transfer lifts its limits so the switch need not wait). */
  onSwitch(fn: () => void): () => void {
    this.#onSwitch.add(fn);
    return () => this.#onSwitch.delete(fn);
  }

  /** Ends every detached request (a switch begins, or the mock closes). */
  endDetached(): void {
    for (const end of [...this.#detached]) end();
    this.#detached.clear();
  }

  /** Runs `change` with no request in flight (or the stragglers aborted) and none admitted until it settles. */
  async exclusive<T>(change: () => Promise<T>): Promise<T> {
    while (this.#switching) await this.#switching;
    let release!: () => void;
    this.#switching = new Promise<void>((resolve) => (release = resolve));
    // Connections held by the old scenario's faults end with it: a client that left them cannot be seen.
    this.endDetached();
    for (const fn of [...this.#onSwitch]) fn();
    this.#onSwitch.clear();
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
