/**
 * Which nodes changed since a moment, for operations prepared in slices (copy, purge, seeding): a
 * generation counter that grows with every applied change, and per node the generation of the last
 * change that touched it or its list of children. Stamps are kept only while someone watches.
 */
export class ChangeStamps {
  readonly #stamps = new Map<string, number>();
  #generation = 0;
  /** The generation of the last whole load: anything read before it is stale. */
  #loadedAt = 0;
  #watchers = 0;

  get generation(): number {
    return this.#generation;
  }

  /** A whole new state was loaded: every earlier reading is stale. */
  loaded(): void {
    this.#stamps.clear();
    this.#loadedAt = ++this.#generation;
  }

  /** Opens the next generation; the stamp function marks ids with it (a no-op when nobody watches). */
  next(): (id: string | null | undefined) => void {
    const generation = ++this.#generation;
    return (id) => {
      if (id && this.#watchers > 0) this.#stamps.set(id, generation);
    };
  }

  forget(id: string): void {
    this.#stamps.delete(id);
  }

  /** Starts keeping stamps for `changedSince`; call the result when done. */
  watch(): () => void {
    this.#watchers += 1;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--this.#watchers === 0) this.#stamps.clear();
    };
  }

  /** True when `id` or its list of children changed after `generation` (while watched). */
  changedSince(id: string, generation: number): boolean {
    return generation < this.#loadedAt || (this.#stamps.get(id) ?? 0) > generation;
  }
}
