import type { JournalEntry } from '../http/journal.js';
import { AUDITED_FIELDS, type AuditedRequest } from './audit-types.js';

/**
 * When the request arrived on the mock's clock, in ms since the epoch: a client whose timers run on the same
 * clock (a frozen one, advanced) is judged by the time it saw. A saved journal without mockTime: the host's time.
 */
export function arrivedAt(e: JournalEntry): number {
  const onMockClock = Date.parse(e.mockTime);
  return Number.isNaN(onMockClock) ? Date.parse(e.time) : onMockClock;
}

/** When its answer ended (arrival plus duration; arrival when it never ended). */
export const endedAt = (e: JournalEntry): number => arrivedAt(e) + (e.durationMs ?? 0);

/** A header the client sent (the journal keeps them lower-cased). */
export const sent = (e: JournalEntry, name: string): string | undefined => e.headers[name];

/**
 * The client saw this request fail: a 5xx, a 429 or 408, no answer at all, or an answer cut short. A
 * failure is what a client retries; anything else is an answer it should act on.
 */
export function failed(e: JournalEntry): boolean {
  if (e.outcome === 'pending') return false;
  if (e.outcome === 'reset' || e.outcome === 'truncated' || e.outcome === 'aborted') return true;
  if (e.status === null) return true;
  return e.status >= 500 || e.status === 429 || e.status === 408;
}

/** How the failure looked to the client, in words. */
export function failureWords(e: JournalEntry): string {
  if (e.outcome === 'reset') return 'a connection reset';
  if (e.outcome === 'truncated') return 'an answer cut short';
  if (e.outcome === 'aborted') return 'its own abort (a client timeout)';
  if (e.status === null) return 'a closed connection';
  return `a ${e.status}`;
}

/**
 * The query parameters that pick what the service answers (paging and filtering); others, such as the
 * cache-busting parameters clients add, do not make a request a different one.
 */
const SELECTING_PARAMS = ['start', 'count', 'filterField', 'filterOperation', 'filterValue'];

/** Which resource a request is about, for the same client: user, method, path and the selecting query. */
export function requestKey(e: JournalEntry): string {
  const selecting = SELECTING_PARAMS.filter((p) => e.query[p] !== undefined).map((p) => `${p}=${String(e.query[p])}`);
  return `${e.user ?? ''} ${e.method} ${e.path}${selecting.length ? `?${selecting.join('&')}` : ''}`;
}

/** Entries grouped by a key, each group oldest first, in order of first appearance. */
export function groupBy(
  entries: readonly JournalEntry[],
  key: (e: JournalEntry) => string | undefined,
): JournalEntry[][] {
  const groups = new Map<string, JournalEntry[]>();
  for (const e of entries) {
    const k = key(e);
    if (k === undefined) continue;
    const group = groups.get(k);
    if (group) group.push(e);
    else groups.set(k, [e]);
  }
  return [...groups.values()];
}

export function audited(e: JournalEntry): AuditedRequest {
  return Object.fromEntries(AUDITED_FIELDS.map((field) => [field, e[field]])) as AuditedRequest;
}

/** "1.5 s" or "120 ms". */
export function duration(ms: number): string {
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(2))} s` : `${Math.max(0, Math.round(ms))} ms`;
}

/** Retry-After as ms to wait after the answer: delay-seconds, or an HTTP date relative to the answer's end. */
export function retryAfterMs(e: JournalEntry): number | undefined {
  const value = e.retryAfter?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - endedAt(e));
}
