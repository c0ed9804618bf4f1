/** Bytes allowed per second, with a burst of at most ~50 ms worth so a pause is not made up in one rush. */
export class TokenBucket {
  readonly rate: number;
  /** The piece worth waiting for: 50 ms of the rate, between 1 byte and 64 KiB. */
  readonly burst: number;
  #tokens: number;
  #at = performance.now();

  /** `debt`: bytes that already went through before the bucket existed (they count against the rate). */
  constructor(bytesPerSecond: number, debt = 0) {
    this.rate = bytesPerSecond;
    this.burst = Math.max(1, Math.min(64 * 1024, Math.floor(bytesPerSecond / 20)));
    this.#tokens = -debt;
  }

  /** Whole bytes that may go now. */
  available(): number {
    const now = performance.now();
    this.#tokens = Math.min(this.burst, this.#tokens + ((now - this.#at) * this.rate) / 1000);
    this.#at = now;
    return Math.max(0, Math.floor(this.#tokens));
  }

  take(bytes: number): void {
    this.#tokens -= bytes;
  }

  /** Milliseconds until `bytes` (at most one burst) may go. */
  msUntil(bytes: number): number {
    const want = Math.min(bytes, this.burst);
    return Math.max(1, Math.ceil(((want - this.#tokens) * 1000) / this.rate));
  }
}
