import type { Request, Response } from 'express';
import { closeAfterResponse } from '../http/close-connection.js';
import { markOutcome } from '../http/journal-marks.js';
import type { BodySink, BodyStage, WriteCallback } from '../http/answer-writer.js';
import type { FaultResponse } from './types.js';
import type { Answer } from '../http/answer.js';

/** Tears the connection down with a TCP RST and no response at all. */
export function resetConnection(req: Request, res: Response): void {
  markOutcome(res, 'reset');
  const socket = req.socket;
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

/** A declared response (sent by the one writer, http/answer.ts); text/plain unless the rule gives a Content-Type. */
export function faultAnswer(respond: FaultResponse): Answer {
  const headers = respond.headers ?? {};
  const hasType = Object.keys(headers).some((h) => h.toLowerCase() === 'content-type');
  return {
    status: respond.status,
    headers: hasType ? headers : { 'Content-Type': 'text/plain; charset=UTF-8', ...headers },
    body: respond.body ?? '',
  };
}

/**
 * The answer writer's truncation stage (http/answer-writer.ts): the real answer goes through up to `limit` body
 * bytes, then the socket closes: the headers (with the full Content-Length) and the first bytes arrive, the
 * rest never does.
 */
export class Truncation implements BodyStage {
  readonly #res: Response;
  readonly #limit: number;
  #next: BodySink | undefined;
  #sent = 0;
  #cut = false;

  constructor(res: Response, limit: number) {
    this.#res = res;
    this.#limit = limit;
  }

  attach(next: BodySink): void {
    this.#next = next;
  }

  write(chunk: Buffer, cb?: WriteCallback): boolean {
    if (this.#cut) {
      cb?.();
      return true;
    }
    if (this.#sent + chunk.length > this.#limit) {
      this.#cutAfter(chunk);
      cb?.();
      return true;
    }
    this.#sent += chunk.length;
    return this.#next!.write(chunk, cb);
  }

  end(chunk: Buffer | undefined, cb?: WriteCallback): void {
    if (this.#cut) return cb?.();
    const buf = chunk ?? Buffer.alloc(0);
    if (this.#sent + buf.length > this.#limit) {
      this.#cutAfter(buf);
      return cb?.();
    }
    // The whole body fits: the response completes, then the connection closes as declared.
    closeAfterResponse(this.#res);
    this.#next!.end(buf, cb);
  }

  #cutAfter(buf: Buffer): void {
    const res = this.#res;
    this.#cut = true;
    markOutcome(res, 'truncated', this.#limit);
    if (!res.headersSent) res.flushHeaders();
    const head = buf.subarray(0, Math.max(0, this.#limit - this.#sent));
    this.#sent += head.length;
    if (head.length > 0) this.#next!.write(head);
    res.socket?.destroySoon();
  }
}
