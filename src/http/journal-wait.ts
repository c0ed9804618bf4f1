import { matchesFilter, type JournalEntry, type JournalFilter, type RequestJournal } from './journal.js';
import { MAX_WAIT_MS } from './journal-query.js';

/** How long a wait lasts unless told: shorter than vitest's 5 s test timeout, so the wait's own error is seen. */
const DEFAULT_WAIT_MS = 4_000;

export { MAX_WAIT_MS };

export interface WaitOptions {
  /** Give up after this long (default 4000 ms) with a RequestWaitTimeout naming the filter. */
  timeoutMs?: number;
  /**
   * Resolve as soon as a matching request arrives, while it is still running (`status` null, `outcome`
   * 'pending'), instead of when its answer is done. A filter on `status` or `outcome` needs the answer.
   */
  arrived?: boolean;
}

/** A wait ran out: no request matched in time. The message names the filter and what did arrive. */
export class RequestWaitTimeout extends Error {
  override readonly name = 'RequestWaitTimeout';
}

/** The filter as a person reads it: `method=PUT path=/v2/files/**`. */
function describeFilter(filter: JournalFilter): string {
  const parts = Object.entries(filter)
    .filter(([key, value]) => value !== undefined && key !== 'limit')
    .map(([key, value]) => `${key}=${String(value)}`);
  return parts.length ? parts.join(' ') : 'any request';
}

/** The timeout's words: the filter, how long, and the last few requests that did arrive meanwhile. */
export function waitTimeoutMessage(filter: JournalFilter, timeoutMs: number, seen: SeenRequests): string {
  const shown = seen.last.map((e) => `#${e.seq} ${e.method} ${e.path} ${e.status ?? e.outcome}`);
  const meanwhile =
    seen.count === 0
      ? 'no other request arrived meanwhile'
      : `${seen.count} other request${seen.count === 1 ? '' : 's'} arrived meanwhile${seen.count > seen.last.length ? ', the last' : ''}: ${shown.join(', ')}`;
  return `no request matching ${describeFilter(filter)} arrived within ${timeoutMs} ms (${meanwhile})`;
}

/** Checks a caller's timeout: a whole number of milliseconds, at most `max`. */
export function checkedTimeout(timeoutMs: number | undefined, max = Number.MAX_SAFE_INTEGER): number {
  const ms = timeoutMs ?? DEFAULT_WAIT_MS;
  if (!Number.isInteger(ms) || ms < 0 || ms > max)
    throw new RangeError(`timeoutMs must be a whole number of milliseconds from 0 to ${max}, got ${timeoutMs}`);
  return ms;
}

/** The requests that completed during a wait without matching: how many, and the last few. */
export interface SeenRequests {
  count: number;
  last: JournalEntry[];
}

const SHOWN_ON_TIMEOUT = 3;

/** A wait in progress: `done` settles with the entry (or null when the time ran out); `cancel` frees it. */
export interface PendingWait {
  done: Promise<JournalEntry | null>;
  /** The requests that completed during the wait and did not match (for the timeout's message). */
  seen: SeenRequests;
  cancel(): void;
}

/**
 * Waits on the journal's own events (no polling) for a request matching `filter`. Without `after` or
 * `since` in the filter, only requests that arrive after this call count; with either, a request already
 * recorded past that mark counts too, so a test can take a mark, start its client, then wait without a race.
 */
export function waitForEntry(journal: RequestJournal, filter: JournalFilter, options: WaitOptions = {}): PendingWait {
  const timeoutMs = checkedTimeout(options.timeoutMs);
  const fromNow = filter.after === undefined && filter.since === undefined;
  const matches = matchesFilter(fromNow ? { ...filter, after: journal.lastSeq } : filter);
  const ready = (e: JournalEntry): boolean => (options.arrived || e.outcome !== 'pending') && matches(e);
  const seen: SeenRequests = { count: 0, last: [] };
  let settle: (entry: JournalEntry | null) => void = () => undefined;
  const done = new Promise<JournalEntry | null>((resolve) => (settle = resolve));
  const already = fromNow ? undefined : journal.entries({ ...filter, limit: undefined }).find(ready);
  if (already) {
    settle(already);
    return { done, seen, cancel: () => undefined };
  }
  let finished = false;
  const finish = (entry: JournalEntry | null): void => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    unsubscribe();
    settle(entry);
  };
  const unsubscribe = journal.subscribe((event) => {
    if (event.type === 'cleared') return;
    if (ready(event.entry)) finish(event.entry);
    else if (event.type === 'updated') {
      seen.count += 1;
      seen.last.push(event.entry);
      if (seen.last.length > SHOWN_ON_TIMEOUT) seen.last.shift();
    }
  });
  const timer = setTimeout(() => finish(null), timeoutMs);
  return { done, seen, cancel: () => finish(null) };
}

/** How many requests the journal holds that match (it keeps the last `journalSize`). */
export function countRequests(journal: RequestJournal, filter: JournalFilter = {}): number {
  return journal.entries({ ...filter, limit: undefined }).length;
}
