import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** A big answer goes out in slices of about this many characters, one turn of the event loop each. */
export const ANSWER_SLICE = 64 * 1024;

/**
 * An answer written while it is made (a listing of a big container). Text is gathered into slices:
 * the status and headers go out with the first slice (the answer is then chunked), or, when the whole
 * answer fits in one slice, with it and its Content-Length. After each slice it yields a turn of the
 * event loop, so other clients are answered meanwhile, and waits for 'drain' when the client reads
 * slower than the answer is made, so memory stays at about a slice whatever the answer's size.
 *
 * Once a slice is out, a failure can no longer become a status: whoever makes the answer lets the
 * error go on to the error middleware, which cuts the connection (sendPlainError on a started
 * answer), so the client sees a truncated answer, never a complete-looking wrong one.
 */
export class SlicedAnswer {
  readonly #res: ServerResponse;
  readonly #status: number;
  readonly #headers: OutgoingHttpHeaders;
  #parts: string[] = [];
  #size = 0;
  #started = false;
  #gone = false;
  readonly #onClose = (): void => void (this.#gone = true);

  constructor(res: ServerResponse, status: number, headers: OutgoingHttpHeaders) {
    this.#res = res;
    this.#status = status;
    this.#headers = headers;
    res.once('close', this.#onClose);
  }

  /** True once the first slice (with the status) is out. */
  get started(): boolean {
    return this.#started;
  }

  /**
   * Adds text; when a slice is full (or `now`: the first bytes of an answer that will take a while),
   * sends it and waits. False: the client went away, stop making the answer.
   */
  async write(text: string, now = false): Promise<boolean> {
    if (this.#gone) return false;
    this.#parts.push(text);
    this.#size += text.length;
    if (this.#size < ANSWER_SLICE && !now) return true;
    if (!this.#started) {
      this.#res.writeHead(this.#status, this.#headers);
      this.#started = true;
    }
    const flushed = this.#res.write(this.#take());
    // A drain may come without a turn of the event loop (a socket that takes the bytes at once): both.
    if (!flushed) await drainedOrClosed(this.#res);
    await nextTurn();
    return !this.#gone;
  }

  /** Sends what is left and ends the answer (in one piece with its length when nothing went out yet). */
  end(text = ''): void {
    this.#res.off('close', this.#onClose);
    if (this.#gone) return;
    this.#parts.push(text);
    const rest = this.#take();
    if (this.#started) {
      this.#res.end(rest);
      return;
    }
    const body = Buffer.from(rest, 'utf8');
    this.#res.writeHead(this.#status, { ...this.#headers, 'Content-Length': body.length });
    this.#res.end(body);
  }

  #take(): string {
    const text = this.#parts.join('');
    this.#parts = [];
    this.#size = 0;
    return text;
  }
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}
