import type { Request, Response } from 'express';
import type { NetworkRecord } from '../../http/network-record.js';
import { TokenBucket } from './token-bucket.js';

/** While paced and nothing is buffered yet, how often to look again (the body is on its way). */
const POLL_MS = 5;

/**
 * Counts the request body's bytes as its reader takes them and, with `upRate`, paces them with the
 * request's own pause() and resume(): a byte reaches the reader only once the token bucket has paid
 * for it. While the request is paused its buffer fills and Node stops reading the socket, so the
 * client's writes slow down as they would on a slow link.
 *
 * Pacing applies to readers that let the body flow (pipe, 'data': every upload path); a reader
 * that pulls with read() is counted, not paced. Bytes go in the batches Node buffered (one
 * network read at most): a batch is paid for before it is given, so no reader is ever ahead.
 */
export class RequestPacer {
  readonly #req: Request;
  readonly #record: NetworkRecord;
  #bucket: TokenBucket | undefined;
  #counting = false;
  /** Bytes the bucket has paid for, and bytes the reader was given. */
  #paid = 0;
  #given = 0;
  /** This pacer paused the request, and a resume of its own is not under way. */
  #holding = false;
  /** A resume of this pacer's own (a paid batch going out). */
  #opening = false;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(req: Request, res: Response, record: NetworkRecord, upRate: number | undefined) {
    this.#req = req;
    this.#record = record;
    this.#bucket = upRate === undefined ? undefined : new TokenBucket(upRate);
    // The reader is not there yet (routing, auth and the store come first): count once it reads.
    req.on('resume', this.#onResume);
    req.on('newListener', this.#onNewListener);
    // Once the answer is out, what is left of the body is not worth waiting for.
    res.once('finish', () => this.lift());
    res.once('close', () => this.#dispose());
  }

  /** From now on the body goes at full speed (the answer is out, or a switch is waiting). */
  lift(): void {
    this.#bucket = undefined;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#holding && !this.#closed) {
      this.#holding = false;
      this.#req.resume();
    }
  }

  /** A reader that pulls with read() ('readable'): counted once its listener is in place. */
  readonly #onNewListener = (event: string | symbol): void => {
    if (event === 'readable') process.nextTick(() => this.#count());
  };

  /** The body starts (or starts again) to flow: nothing goes that is not paid for. */
  readonly #onResume = (): void => {
    this.#count();
    if (!this.#bucket || this.#closed || this.#opening) return;
    this.#hold();
  };

  #count(): void {
    if (this.#counting || this.#closed) return;
    this.#counting = true;
    this.#req.prependListener('data', this.#onData);
  }

  readonly #onData = (chunk: Buffer | string): void => {
    const size = typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    this.#given += size;
    this.#record.bytesIn += size;
    if (this.#bucket && this.#given >= this.#paid) this.#hold();
  };

  #hold(): void {
    this.#opening = false;
    this.#holding = true;
    this.#req.pause();
    this.#schedule();
  }

  /** Pays for what is buffered now and gives it once paid; with nothing buffered, looks again soon. */
  #schedule(): void {
    const bucket = this.#bucket;
    if (this.#timer || !bucket || this.#closed) return;
    bucket.available();
    // Bytes a pipe let through on its own (its 'drain' restarts the flow) are paid for now.
    if (this.#given > this.#paid) {
      bucket.take(this.#given - this.#paid);
      this.#paid = this.#given;
    }
    const batch = this.#req.readableLength;
    if (batch === 0 && this.#req.complete) return this.lift(); // only the end is left to give
    if (batch > 0) {
      bucket.take(batch);
      this.#paid += batch;
    }
    const wait = batch > 0 ? bucket.msUntil(0) : Math.max(POLL_MS, bucket.msUntil(0));
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.#closed || !this.#bucket) return;
      if (batch === 0) return this.#schedule();
      this.#opening = true;
      this.#holding = false;
      this.#req.resume();
    }, wait);
  }

  #dispose(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#req.off('resume', this.#onResume);
    this.#req.off('newListener', this.#onNewListener);
    this.#req.off('data', this.#onData);
  }
}
