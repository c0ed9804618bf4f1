/**
 * Runs async tasks one at a time, in the order they were queued. A task that fails does not stop
 * the ones after it; its caller gets the failure.
 */
export class Mutex {
  #tail: Promise<unknown> = Promise.resolve();
  #queued = 0;

  run<T>(task: () => T | Promise<T>): Promise<T> {
    this.#queued++;
    const run = this.#tail.then(task);
    this.#tail = run.then(
      () => this.#queued--,
      () => this.#queued--,
    );
    return run;
  }

  /** True when no task is running or waiting. */
  get idle(): boolean {
    return this.#queued === 0;
  }
}

/** One Mutex per key, kept only while a task for that key runs or waits. */
export class KeyedMutex<K> {
  readonly #locks = new Map<K, Mutex>();

  run<T>(key: K, task: () => T | Promise<T>): Promise<T> {
    let lock = this.#locks.get(key);
    if (!lock) this.#locks.set(key, (lock = new Mutex()));
    const held = lock;
    const run = held.run(task);
    const forget = (): void => {
      if (held.idle && this.#locks.get(key) === held) this.#locks.delete(key);
    };
    // The mutex chained its own count on `run` first, so `idle` is up to date when this runs.
    void run.then(forget, forget);
    return run;
  }

  /** Keys with a task running or waiting (for tests of the bookkeeping). */
  get size(): number {
    return this.#locks.size;
  }
}
