import type { Request, Response } from 'express';
import { HttpError } from '../http/errors.js';
import { AdminSlots } from './admin-slots.js';
import type { JournalFilter, RequestJournal } from '../http/journal.js';
import { MAX_WAIT_MS, checkedTimeout, waitForEntry, waitTimeoutMessage } from '../http/journal-wait.js';

/** Waits open at once (half of them from one source); more are refused, so forgotten waits cannot pile up. */
export const MAX_WAITERS = 64;

/**
 * GET /__admin/requests/wait?FILTER&timeoutMs=N[&arrived=true]: a long poll. Answers
 * `{"request": ENTRY}` as soon as a matching request is in the journal (see waitForEntry for which count),
 * or `{"request": null, "message": ...}` when the time runs out. A client that goes away frees its wait.
 */
export function requestWaitHandler(
  journal: RequestJournal,
): (req: Request, res: Response, filter: JournalFilter) => void {
  const slots = new AdminSlots(MAX_WAITERS, 'request waits');
  return (req, res, filter) => {
    const timeoutMs = timeoutOf(req.query['timeoutMs']);
    const arrived = flagOf(req.query['arrived']);
    const release = slots.take(req);
    const wait = waitForEntry(journal, filter, { timeoutMs, arrived });
    // The wait itself bounds how long the socket idles; the server's idle limit must not cut it first.
    const idleMs = req.socket.timeout ?? 0;
    req.socket.setTimeout(0);
    res.once('close', () => {
      release();
      wait.cancel();
    });
    void wait.done.then((entry) => {
      if (res.destroyed) return;
      req.socket.setTimeout(idleMs);
      res.json(
        entry ? { request: entry } : { request: null, message: waitTimeoutMessage(filter, timeoutMs, wait.seen) },
      );
    });
  };
}

function timeoutOf(value: unknown): number {
  if (value === undefined) return checkedTimeout(undefined);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || Number(value) > MAX_WAIT_MS)
    throw new HttpError(400, `timeoutMs must be a whole number of milliseconds from 0 to ${MAX_WAIT_MS}`);
  return Number(value);
}

function flagOf(value: unknown): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true' || value === '') return true;
  throw new HttpError(400, 'arrived must be true or false');
}
