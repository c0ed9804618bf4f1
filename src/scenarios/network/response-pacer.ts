import type { Request, Response } from 'express';
import type { Socket } from 'node:net';
import type { NetworkRecord } from '../../http/network-record.js';
import type { BodySink, BodyStage, WriteCallback } from '../../http/answer-writer.js';
import type { DrawnSlice } from './network-conditions.js';
import { TokenBucket } from './token-bucket.js';
import type { Hang } from '../types.js';

/** What shapes an answer's body on its way to the socket. */
export interface AnswerShape {
  downRate: number | undefined;
  slice: DrawnSlice | undefined;
  hang: Hang | undefined;
  /** Called when a hang begins: the answer will not finish, the request only holds its connection. */
  onHang: () => void;
  /** Called when the hang's `ms` are over: the connection ends as the hang says. */
  onHangEnd: () => void;
}

/** A handler's writes beyond this wait (write() answers false, 'drain' follows), like a socket's buffer. */
const HIGH_WATER = 16 * 1024;
/** A paced write never hands the socket more than this at once. */
const MAX_PIECE = 16 * 1024;

interface Pending {
  buf: Buffer;
  cb: WriteCallback | undefined;
}

/**
 * The answer writer's pacing stage (http/answer-writer.ts): the body goes out at `downRate`, in slices,
 * and stops after a hang's bytes. Nothing is buffered beyond one handler write past HIGH_WATER: writes
 * answer false until the queue has gone, as a socket would, so streams (files, proxies) wait.
 */
export class ResponsePacer implements BodyStage {
  readonly #res: Response;
  readonly #socket: Socket | null;
  readonly #record: NetworkRecord;
  readonly #shape: AnswerShape;
  #bucket: TokenBucket | undefined;
  #slice: DrawnSlice | undefined;
  #next: BodySink | undefined;
  readonly #bodyless: boolean;
  readonly #queue: Pending[] = [];
  #queued = 0;
  /** Body bytes the handler gave, and bytes handed to the socket. */
  #given = 0;
  #sent = 0;
  #ending: { cb: WriteCallback | undefined } | undefined;
  #ended = false;
  #needDrain = false;
  #held = false;
  #closed = false;
  #timer: NodeJS.Timeout | undefined;
  #waitingDrain = false;
  /** Bytes left in the slice being sent, and when the next slice may start. */
  #sliceLeft = 0;
  #nextSliceAt = 0;

  constructor(req: Request, res: Response, record: NetworkRecord, shape: AnswerShape) {
    this.#res = res;
    this.#socket = res.socket;
    this.#record = record;
    this.#shape = shape;
    this.#bucket = shape.downRate === undefined ? undefined : new TokenBucket(shape.downRate);
    this.#slice = shape.slice;
    // A HEAD answer has no body to shape; only a hang still holds it back.
    this.#bodyless = req.method === 'HEAD';
    res.once('close', () => this.#dispose());
  }

  attach(next: BodySink): void {
    this.#next = next;
  }

  write(chunk: Buffer, cb?: WriteCallback): boolean {
    if (this.#closed || this.#bodyless) return this.#next!.write(chunk, cb);
    return this.#accept(chunk, cb);
  }

  end(chunk: Buffer | undefined, cb?: WriteCallback): void {
    const res = this.#res;
    // A bodyless answer ends as it would (its end() may still set Content-Length), unless a hang holds it.
    if (this.#closed || (this.#bodyless && !this.#shape.hang)) return this.#next!.end(chunk, cb);
    if (chunk !== undefined && !this.#bodyless) {
      // The whole body in one end(): keep the framing it would have had (Content-Length, not chunked).
      if (
        this.#given === 0 &&
        !res.headersSent &&
        !res.hasHeader('content-length') &&
        !res.hasHeader('transfer-encoding')
      ) {
        res.setHeader('Content-Length', chunk.length);
      }
      this.#accept(chunk, undefined);
    }
    this.#ending = { cb };
    this.#pump();
  }

  /** From now on the answer goes at full speed and whole (a switch is waiting); a hang still holds it. */
  lift(): void {
    this.#bucket = undefined;
    this.#slice = undefined;
    if (this.#held) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pump();
  }

  #accept(buf: Buffer, cb: WriteCallback | undefined): boolean {
    this.#given += buf.length;
    this.#queue.push({ buf, cb });
    this.#queued += buf.length;
    this.#pump();
    if (this.#queued < HIGH_WATER) return true;
    this.#needDrain = true;
    return false;
  }

  #later(ms: number): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#pump();
    }, ms);
  }

  /** The size of the next piece, or a wait (timer or socket drain) set up instead. */
  #nextPiece(head: Buffer): number | undefined {
    let size = head.length;
    const hang = this.#shape.hang;
    if (hang) size = Math.min(size, (hang.afterBytes ?? 0) - this.#sent);
    const slice = this.#slice;
    if (slice) {
      if (this.#sliceLeft === 0) {
        const wait = this.#nextSliceAt - performance.now();
        if (wait > 0) return void this.#later(Math.ceil(wait));
        const jitter = Math.round((slice.draw() * 2 - 1) * slice.jitterBytes);
        this.#sliceLeft = Math.max(1, slice.bytes + jitter);
      }
      size = Math.min(size, this.#sliceLeft);
    }
    if (this.#bucket || slice) {
      // Paced bytes wait for the client to take the previous ones: the socket never queues much.
      if (this.#socket?.writableNeedDrain) return void this.#waitForDrain();
      size = Math.min(size, MAX_PIECE);
    }
    if (this.#bucket) {
      const available = this.#bucket.available();
      if (available < Math.min(size, this.#bucket.burst)) return void this.#later(this.#bucket.msUntil(size));
      size = Math.min(size, available);
    }
    return size;
  }

  #waitForDrain(): void {
    if (this.#waitingDrain || !this.#socket) return;
    this.#waitingDrain = true;
    this.#socket.once('drain', this.#onDrain);
  }

  readonly #onDrain = (): void => {
    this.#waitingDrain = false;
    this.#pump();
  };

  #pump(): void {
    if (this.#closed || this.#held || this.#timer || this.#waitingDrain || this.#ended) return;
    const hang = this.#shape.hang;
    while (this.#queue.length > 0) {
      if (hang && this.#sent >= (hang.afterBytes ?? 0)) return this.#startHang();
      const head = this.#queue[0]!;
      const size = this.#nextPiece(head.buf);
      if (size === undefined) return;
      const last = size >= head.buf.length;
      const piece = last ? head.buf : head.buf.subarray(0, size);
      if (last) this.#queue.shift();
      else head.buf = head.buf.subarray(size);
      this.#queued -= size;
      this.#sent += size;
      this.#record.bytesOut += size;
      this.#bucket?.take(size);
      const slice = this.#slice;
      if (slice && (this.#sliceLeft -= size) === 0) this.#nextSliceAt = performance.now() + slice.delayMs;
      this.#next!.write(piece, last ? head.cb : undefined);
      if (this.#closed) return;
      if (this.#socket?.writableNeedDrain && !this.#bucket && !this.#slice) return this.#waitForDrain();
    }
    if (this.#needDrain) {
      this.#needDrain = false;
      this.#res.emit('drain');
    }
    if (!this.#ending) return;
    // The answer never finishes under a hang: its bytes are out (or the hang's share of them), then silence.
    if (hang) return this.#startHang();
    this.#ended = true;
    this.#next!.end(undefined, this.#ending.cb);
  }

  #startHang(): void {
    if (this.#held) return;
    this.#held = true;
    // "After N bytes": an answer with fewer body bytes than N still shows its status and headers.
    if ((this.#shape.hang?.afterBytes ?? 0) > 0) this.#res.flushHeaders();
    this.#shape.onHang();
    const ms = this.#shape.hang?.ms;
    if (ms !== undefined) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        if (!this.#closed) this.#shape.onHangEnd();
      }, ms);
    }
  }

  #dispose(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#socket?.off('drain', this.#onDrain);
    this.#queue.length = 0;
    this.#queued = 0;
  }
}
