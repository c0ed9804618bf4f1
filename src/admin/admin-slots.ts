import type { IncomingMessage } from 'node:http';
import { HttpError } from '../http/errors.js';

/**
 * Slots for the admin answers that stay open (request waits, inspector event streams): a total, and at
 * most half of it for one source, so one page, tab or script cannot take every slot and lock out the
 * test suite or the inspector. A source is the Origin a browser names, else the Host the client used.
 */
export class AdminSlots {
  readonly #total: number;
  readonly #perSource: number;
  readonly #what: string;
  #open = 0;
  /** Open slots by source; a source leaves the map when it holds none, so it is bounded by the total. */
  readonly #bySource = new Map<string, number>();

  constructor(total: number, what: string) {
    this.#total = total;
    this.#perSource = Math.max(1, Math.floor(total / 2));
    this.#what = what;
  }

  /** Takes a slot for the request's source, or throws 503 saying which limit it met; `release` gives it back once. */
  take(req: IncomingMessage): () => void {
    const source = sourceOf(req);
    const held = this.#bySource.get(source) ?? 0;
    if (this.#open >= this.#total) throw new HttpError(503, `at most ${this.#total} ${this.#what} may be open at once`);
    if (held >= this.#perSource)
      throw new HttpError(503, `at most ${this.#perSource} ${this.#what} may be open at once from one source`);
    this.#open += 1;
    this.#bySource.set(source, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#open -= 1;
      const left = (this.#bySource.get(source) ?? 1) - 1;
      if (left > 0) this.#bySource.set(source, left);
      else this.#bySource.delete(source);
    };
  }
}

function sourceOf(req: IncomingMessage): string {
  const origin = req.headers.origin;
  return origin !== undefined ? `origin ${origin.toLowerCase()}` : `host ${(req.headers.host ?? '').toLowerCase()}`;
}
