import type { Request, Response } from 'express';
import type { NetworkRecord } from '../http/network-record.js';
import type { SocketReadHold } from './socket-read-hold.js';
import { TokenBucket } from './token-bucket.js';

type Push = (chunk: unknown, encoding?: BufferEncoding) => boolean;

/** A request body delivered to the service no faster than `upRate` is never ahead by more than one network read. */
const MAX_PIECE = 16 * 1024;

/**
 * Stands between the HTTP parser and whoever reads the request body: the parser's pushes are queued
 * and passed on at `upRate` (or at once without one), and the socket is not read while bytes wait,
 * so the client's writes slow down as they would on a slow link. Counts the body bytes read.
 */
export class RequestPacer {
  readonly #record: NetworkRecord;
  readonly #hold: SocketReadHold;
  #bucket: TokenBucket | undefined;
  readonly #push: Push;
  readonly #queue: (Buffer | null)[] = [];
  /** Whether the reader wants more (the last push was taken, or _read was called since). */
  #wanted = true;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  readonly #counts: boolean;

  /** `counts`: false when another reader (a stalled upload) says how many bytes the server took. */
  constructor(
    req: Request,
    res: Response,
    record: NetworkRecord,
    hold: SocketReadHold,
    upRate: number | undefined,
    counts = true,
  ) {
    this.#record = record;
    this.#hold = hold;
    // Bytes that came with the headers are already read; they count, and against the rate too.
    const early = req.readableLength;
    this.#counts = counts;
    if (counts) record.bytesIn += early;
    this.#bucket = upRate === undefined ? undefined : new TokenBucket(upRate, early);
    this.#push = req.push.bind(req) as Push;
    if (req.complete) return;
    const read = req._read.bind(req);
    req.push = ((chunk: unknown, encoding?: BufferEncoding) => {
      if (this.#closed) return this.#push(chunk, encoding);
      if (chunk === null) this.#queue.push(null);
      else {
        const buf = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : (chunk as Buffer);
        if (this.#counts) this.#record.bytesIn += buf.length;
        this.#queue.push(buf);
        this.#hold.hold('pace');
      }
      this.#pump();
      // The parser's own pause does not hold a consumed socket; the hold above does.
      return true;
    }) as Request['push'];
    req._read = (size: number) => {
      this.#wanted = true;
      // Node's _read marks the body as being consumed and asks the socket for more; the hold keeps it shut while bytes wait.
      read(size);
      this.#pump();
    };
    // Once the answer is out, what is left of the body is not worth waiting for.
    res.once('finish', () => this.lift());
    res.once('close', () => this.#dispose());
  }

  /** From now on the body goes at full speed (the answer is out, or a switch is waiting). */
  lift(): void {
    this.#bucket = undefined;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pump();
  }

  #pump(): void {
    if (this.#timer || this.#closed) return;
    while (this.#queue.length > 0 && this.#wanted) {
      const head = this.#queue[0]!;
      if (head === null) {
        this.#queue.shift();
        this.#push(null);
        break;
      }
      let size = Math.min(head.length, MAX_PIECE);
      if (this.#bucket) {
        const available = this.#bucket.available();
        if (available < Math.min(size, this.#bucket.burst)) {
          this.#timer = setTimeout(() => {
            this.#timer = undefined;
            this.#pump();
          }, this.#bucket.msUntil(size));
          return;
        }
        size = Math.min(size, available);
        this.#bucket.take(size);
      }
      if (size >= head.length) this.#queue.shift();
      else this.#queue[0] = head.subarray(size);
      this.#wanted = this.#push(size >= head.length ? head : head.subarray(0, size));
      if (this.#closed) return;
    }
    if (this.#queue.length === 0) this.#hold.release('pace');
  }

  #dispose(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#queue.length = 0;
  }
}
