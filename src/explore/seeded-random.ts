/**
 * A small seeded generator (mulberry32): the same seed gives the same schedule on every machine, which is
 * all a schedule needs (not cryptographic quality).
 */
export class SeededRandom {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A whole number in [0, n). */
  below(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** One of `items` (which must not be empty). */
  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)]!;
  }
}
