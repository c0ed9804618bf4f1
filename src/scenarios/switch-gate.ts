/**
 * Makes a scenario switch atomic: requests enter freely, a switch waits until the requests in
 * flight have finished and holds new ones back until it is done, so a request runs wholly under
 * the old scenario (and state) or wholly under the new one.
 */
export class SwitchGate {
  #inFlight = 0;
  #drained: (() => void)[] = [];
  #switching: Promise<void> | undefined;
  readonly #detached = new Set<() => void>();
  readonly #onSwitch = new Set<() => void>();

  /** Waits for any switch under way, then counts the request in; call the returned function once it ends. */
  async enter(): Promise<() => void> {
    while (this.#switching) await this.#switching;
    this.#inFlight += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.#inFlight -= 1;
      if (this.#inFlight === 0) for (const resolve of this.#drained.splice(0)) resolve();
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

  /** Runs `change` with no request in flight and none admitted until it settles. */
  async exclusive<T>(change: () => Promise<T>): Promise<T> {
    while (this.#switching) await this.#switching;
    let release!: () => void;
    this.#switching = new Promise<void>((resolve) => (release = resolve));
    // Connections held by the old scenario's faults end with it: a client that left them cannot be seen.
    this.endDetached();
    for (const fn of [...this.#onSwitch]) fn();
    this.#onSwitch.clear();
    try {
      if (this.#inFlight > 0) await new Promise<void>((resolve) => this.#drained.push(resolve));
      return await change();
    } finally {
      this.#switching = undefined;
      release();
    }
  }
}
