import type { Request, RequestHandler, Response } from 'express';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { notModified } from './not-modified.js';

/** Among a text body's pieces: send what is gathered now (the first bytes of an answer that will take a while). */
export const SEND_NOW = Symbol('send now');

/** A big text answer goes out in slices of about this many characters, one turn of the event loop each. */
export const ANSWER_SLICE = 64 * 1024;

/** Bytes of synthetic content queued at a time (views, not copies: queuing them costs no memory). */
const VIEW_BATCH_BYTES = 4 * 1024 * 1024;

export type AnswerBody =
  | string
  | Buffer
  /** A file's bytes, piped as the client takes them. */
  | { stream: Readable }
  /** Synthetic content: views of one small block, written a batch at a time. */
  | { views: Iterator<Buffer> }
  /** Text made while it is written (a listing, a multistatus, a HAR): sent in slices that yield to other clients. */
  | { pieces: AsyncIterable<string | typeof SEND_NOW> | Iterable<string | typeof SEND_NOW> };

/** What a route answers; sendAnswer writes it. Headers already set on the response (Vary, DAV) stay. */
export interface Answer {
  status: number;
  headers?: OutgoingHttpHeaders;
  body?: AnswerBody;
}

/** A route of the service: it reads the request and returns its answer (or throws an error the error middleware answers). */
export type AnswerRoute = (req: Request, res: Response) => Answer | Promise<Answer>;

/**
 * The express handler of a service route: its answer, sent; a 200 to a GET or HEAD with an ETag or
 * Last-Modified the client already has is 304 (not-modified.ts). Answers replayed as data (a recording, a
 * fault's `respond`) go through sendAnswer alone, as they were recorded or declared.
 */
export function answering(route: AnswerRoute): RequestHandler {
  return (req, res) => {
    const answer = route(req, res);
    return answer instanceof Promise ? answer.then((a) => sendFresh(res, a)) : sendFresh(res, answer);
  };
}

function sendFresh(res: ServerResponse, answer: Answer): void | Promise<void> {
  const { headers } = answer;
  if (answer.status !== 200 || !headers || !notModified(res.req, headers['ETag'], headers['Last-Modified']))
    return sendAnswer(res, answer);
  if (answer.body !== undefined && typeof answer.body === 'object' && 'stream' in answer.body)
    answer.body.stream.destroy();
  const kept = { ...headers };
  delete kept['Content-Type'];
  delete kept['Content-Length'];
  return sendAnswer(res, { status: 304, headers: kept });
}

/** `${status} ${message}\n` as text/plain: every error, a replay miss. */
export function plainAnswer(status: number, message: string, headers: OutgoingHttpHeaders = {}): Answer {
  return {
    status,
    headers: { ...headers, 'Content-Type': 'text/plain; charset=UTF-8' },
    body: `${status} ${message}\n`,
  };
}

/**
 * The one place an answer is written. A whole body goes with its length; a HEAD gets the head alone.
 * Once the headers are out no other answer can be given: the connection is cut (the client sees a
 * truncated answer, never a complete-looking wrong one). Pacing, truncation, the journal's tap and the
 * answer hooks then run as the bytes leave (answer-writer.ts).
 */
export function sendAnswer(res: ServerResponse, answer: Answer): void | Promise<void> {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const { status, headers, body } = answer;
  if (headers) for (const name in headers) if (headers[name] !== undefined) res.setHeader(name, headers[name]);
  // The status is set, not written: Node makes the head with the first bytes, so an answer a hang holds
  // before its first byte has sent no status, and the journal says so.
  res.statusCode = status;
  if (body === undefined) {
    res.end();
    return;
  }
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    // A text goes as text: Node sends it in one write with the head.
    res.setHeader('Content-Length', typeof body === 'string' ? Buffer.byteLength(body) : body.length);
    res.end(res.req.method === 'HEAD' ? undefined : body);
    return;
  }
  if (res.req.method === 'HEAD') {
    if ('stream' in body) body.stream.destroy();
    res.end();
    return;
  }
  if ('stream' in body) {
    return pipeline(body.stream, res).catch(() => void res.destroy());
  }
  if ('views' in body) return sendViews(res, body.views);
  return sendPieces(res, body.pieces);
}

/**
 * Text made while it is written. Pieces are gathered into slices: the head goes out with the first
 * slice (the answer is then chunked), or, when the whole answer fits in one slice, with it and its
 * length. After each slice a turn of the event loop goes to other clients, and when the client reads
 * slower than the answer is made the next waits for 'drain': memory stays at about a slice.
 */
async function sendPieces(
  res: ServerResponse,
  pieces: AsyncIterable<string | typeof SEND_NOW> | Iterable<string | typeof SEND_NOW>,
): Promise<void> {
  let gone = false;
  const onClose = (): void => void (gone = true);
  res.once('close', onClose);
  let parts: string[] = [];
  let size = 0;
  const take = (): string => {
    const text = parts.join('');
    parts = [];
    size = 0;
    return text;
  };
  // A text made at once (a sync iterable) is gathered without a turn a piece: only a full slice waits.
  const iterator = Symbol.asyncIterator in pieces ? pieces[Symbol.asyncIterator]() : pieces[Symbol.iterator]();
  try {
    for (;;) {
      const next = iterator.next();
      const step = next instanceof Promise ? await next : next;
      if (step.done) break;
      const piece = step.value;
      if (piece !== SEND_NOW) {
        parts.push(piece);
        size += piece.length;
        if (size < ANSWER_SLICE) continue;
      }
      if (!res.write(take())) await drainedOrClosed(res);
      await nextTurn();
      if (gone) {
        await iterator.return?.();
        return;
      }
    }
  } finally {
    res.off('close', onClose);
  }
  const text = take();
  if (!res.headersSent) res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
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

/**
 * Synthetic content written as a buffer from memory is: a batch of views at a time into the corked
 * response, so the socket takes each batch in one writev, then the next batch once it drains. The
 * views share one small block, so a batch costs no memory.
 */
function sendViews(res: ServerResponse, views: Iterator<Buffer>): void {
  const pump = (): void => {
    if (res.destroyed) return;
    res.cork();
    let queued = 0;
    let ready = true;
    for (let next = views.next(); ; next = views.next()) {
      if (next.done) {
        res.end();
        res.uncork();
        return;
      }
      ready = res.write(next.value);
      queued += next.value.length;
      if (queued >= VIEW_BATCH_BYTES) break;
    }
    res.uncork();
    if (ready) setImmediate(pump);
    else res.once('drain', pump);
  };
  pump();
}
