/**
 * Makes a scenario switch atomic: requests enter freely, a switch waits until the requests in
 * flight have finished and holds new ones back until it is done, so a request runs wholly under
 * the old scenario (and state) or wholly under the new one.
 */
export class SwitchGate {
  #inFlight = 0;
  #drained: (() => void)[] = [];
  #switching: Promise<void> | undefined;

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

  /** Runs `change` with no request in flight and none admitted until it settles. */
  async exclusive<T>(change: () => Promise<T>): Promise<T> {
    while (this.#switching) await this.#switching;
    let release!: () => void;
    this.#switching = new Promise<void>((resolve) => (release = resolve));
    try {
      if (this.#inFlight > 0) await new Promise<void>((resolve) => this.#drained.push(resolve));
      return await change();
    } finally {
      this.#switching = undefined;
      release();
    }
  }
}
