import type { Request, Response } from 'express';
import { closeAfterResponse } from '../http/close-connection.js';
import { markOutcome } from '../http/journal-marks.js';
import { callbackOf, toBuffer, writableBody } from './body-intercept.js';
import type { FaultResponse } from './types.js';

/** Tears the connection down with a TCP RST and no response at all. */
export function resetConnection(req: Request, res: Response): void {
  markOutcome(res, 'reset');
  const socket = req.socket;
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

/** Sends a declared response; text/plain unless the rule gives a Content-Type. */
export function sendFaultResponse(res: Response, respond: FaultResponse, close: boolean): void {
  res.status(respond.status);
  const headers = respond.headers ?? {};
  const hasType = Object.keys(headers).some((h) => h.toLowerCase() === 'content-type');
  if (!hasType) res.setHeader('Content-Type', 'text/plain; charset=UTF-8');
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (close) closeAfterResponse(res);
  // A Buffer keeps express from rewriting a declared charset.
  res.end(Buffer.from(respond.body ?? '', 'utf8'));
}

/**
 * Lets the real response through up to `limit` body bytes, then closes the socket: the headers
 * (with the full Content-Length) and the first bytes arrive, the rest never does.
 */
export function truncateBody(res: Response, limit: number): void {
  const body = writableBody(res);
  const write = body.write.bind(res);
  const end = body.end.bind(res);
  let sent = 0;
  let cut = false;

  const cutAfter = (buf: Buffer): void => {
    cut = true;
    markOutcome(res, 'truncated', limit);
    if (!res.headersSent) res.flushHeaders();
    const head = buf.subarray(0, Math.max(0, limit - sent));
    sent += head.length;
    if (head.length > 0) write(head);
    res.socket?.destroySoon();
  };

  body.write = (chunk, encoding, cb) => {
    const done = callbackOf(encoding, cb);
    if (cut) {
      done?.();
      return true;
    }
    const buf = toBuffer(chunk, encoding);
    if (sent + buf.length > limit) {
      cutAfter(buf);
      done?.();
      return true;
    }
    sent += buf.length;
    return write(buf, done);
  };

  body.end = (chunk, encoding, cb) => {
    const done = callbackOf(chunk, encoding, cb);
    if (cut) {
      done?.();
      return res;
    }
    const buf = typeof chunk === 'function' || chunk === undefined ? Buffer.alloc(0) : toBuffer(chunk, encoding);
    if (sent + buf.length > limit) {
      cutAfter(buf);
      done?.();
      return res;
    }
    // The whole body fits: the response completes, then the connection closes as declared.
    closeAfterResponse(res);
    return end(buf, done);
  };
}
