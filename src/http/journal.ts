import type { Request, RequestHandler, Response } from 'express';
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { systemClock, type Clock } from '../clock/mock-clock.js';
import { parseBasicAuth } from './auth.js';
import { tapAnswer } from './answer-writer.js';
import { CappedBytes, tapRequest } from './body-tap.js';
import { mayChangeState } from './methods.js';
import { marksOf, outcomeOf } from './journal-marks.js';
import type { DeviceChangeNote, JournalBody, JournalEntry, RequestOutcome } from './wire-types.js';
import { redactBodyText, redactHeaderMap, redactQueryOf } from './redaction.js';
import { pathMatcher } from './path-glob.js';
import { isStatusClass, type StatusClass } from './journal-query.js';

export type { DeviceChangeNote, JournalBody, JournalEntry };
export { markReplay, markScenario, type ReplayNote, type RequestOutcome } from './journal-marks.js';

export { isStatusClass, type StatusClass };

function statusMatches(wanted: number | StatusClass | undefined, status: number | null): boolean {
  if (wanted === undefined) return true;
  if (typeof wanted === 'number') return status === wanted;
  return status !== null && Math.floor(status / 100) === Number(wanted[0]);
}

/** Which entries to return: every given condition must hold. */
export interface JournalFilter {
  method?: string;
  /** A path glob: "*" within one segment, "**" across segments. */
  path?: string;
  /** A status (404) or a class of them ('4xx'), as the inspector's filter takes them. */
  status?: number | StatusClass;
  /** Entries that arrived at or after this ISO time. */
  since?: string;
  /** Entries with a larger seq (for following the journal). */
  after?: number;
  /** At most this many, the newest. */
  limit?: number;
  /** Only this user's requests (the Basic auth login name). */
  user?: string;
  /** Only requests this fault rule applied to (its name). */
  fault?: string;
  /** Only requests that ended this way ('reset', 'aborted', ...). */
  outcome?: RequestOutcome;
}

export interface JournalOptions {
  /** Entries kept, oldest dropped first. Default 1000. */
  size?: number;
  /** Keep up to this many bytes of each request and response body (0, the default, keeps none). */
  bodies?: number;
  /** More header and query names to hide besides the shared secret list (record's --redact). */
  redact?: readonly string[];
  /** The mock's clock, for each entry's `mockTime` (default: the host's). */
  clock?: Clock;
}

/** What a live subscriber hears: an entry on arrival ('added'), again when done ('updated'), or the journal cleared. */
export type JournalEvent = { type: 'added' | 'updated'; entry: JournalEntry } | { type: 'cleared' };

export const DEFAULT_JOURNAL_SIZE = 1000;

/** Bytes of each answer kept while someone previews bodies (the inspector is open) and `bodies` keeps none. */
export const BODY_PREVIEW_BYTES = 4096;

/** A second-device change for the journal: who, what (its kind in capitals), where, and how it ended. */
export interface DeviceChangeRecord {
  user: string;
  kind: string;
  /** The object's path in the user's tree. */
  path: string;
  status: number;
  committed: boolean;
  durationMs: number;
  scenario: string | null;
  change: DeviceChangeNote;
}

/** A predicate for a filter; throws on a filter that cannot be applied (a person typed it). */
export function matchesFilter(filter: JournalFilter): (e: JournalEntry) => boolean {
  const method = filter.method?.toUpperCase();
  const path = filter.path ? pathMatcher(filter.path) : undefined;
  const since = filter.since ? Date.parse(filter.since) : undefined;
  if (since !== undefined && Number.isNaN(since)) throw new Error(`since must be an ISO time, got "${filter.since}"`);
  return (e) =>
    (method === undefined || e.method === method) &&
    (path === undefined || path(e.path)) &&
    statusMatches(filter.status, e.status) &&
    (since === undefined || Date.parse(e.time) >= since) &&
    (filter.after === undefined || e.seq > filter.after) &&
    (filter.user === undefined || e.user === filter.user) &&
    (filter.fault === undefined || e.fault === filter.fault) &&
    (filter.outcome === undefined || e.outcome === filter.outcome);
}

function bodyOf(captured: CappedBytes, limit: number): JournalBody | undefined {
  if (captured.total === 0) return undefined;
  const bytes = captured.bytes();
  const text = bytes.toString('utf8');
  // Binary bodies are counted, not kept: a replacement character means the bytes were not UTF-8 text.
  const isText = !text.slice(0, Math.max(0, text.length - 1)).includes('\uFFFD');
  const body: JournalBody = { bytes: captured.total, truncated: captured.total > limit };
  if (isText) body.text = redactBodyText(text);
  return body;
}

/** The answer headers a client's behaviour is judged by (the audit): a validator to revalidate, a wait asked for. */
function answerHeadersInto(entry: JournalEntry, res: ServerResponse): void {
  if (!res.headersSent) return;
  const etag = res.getHeader('etag');
  const retryAfter = res.getHeader('retry-after');
  if (etag !== undefined) entry.etag = String(etag);
  if (retryAfter !== undefined) entry.retryAfter = String(retryAfter);
}

/** An entry as it arrives: nothing known yet of who sent it (filled in when read) or of its answer. */
const blankEntry = (seq: number, method: string, path: string, scenario: string | null): JournalEntry => ({
  seq,
  time: '',
  mockTime: '',
  method,
  path,
  query: {},
  headers: {},
  user: null,
  status: null,
  outcome: 'pending',
  durationMs: null,
  delayMs: null,
  fault: null,
  scenario,
  network: null,
  replay: null,
});

/**
 * A journal entry, and what it was made from until someone reads it (`unread`): redaction costs nothing
 * while nobody looks.
 */
interface Slot {
  entry: JournalEntry;
  unread: { arrived: number; mockArrived: number; url: string; headers: IncomingHttpHeaders } | undefined;
  /** The answer's headers as sent, until someone reads them (then `entry.responseHeaders`, redacted). */
  answered: OutgoingHttpHeaders | undefined;
}

/** The last requests the service saw (bounded), oldest first; subscribers hear each entry as it arrives and completes. */
export class RequestJournal {
  #slots: Slot[] = [];
  #seq = 0;
  readonly #size: number;
  readonly #bodies: number;
  readonly #listeners = new Set<(event: JournalEvent) => void>();
  readonly #redact: readonly string[];
  readonly #clock: Clock;
  /** How many watchers want answers' first bytes kept (see previewBodies). */
  #previewers = 0;

  constructor(options: JournalOptions = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#size = Math.max(1, options.size ?? DEFAULT_JOURNAL_SIZE);
    this.#bodies = Math.max(0, options.bodies ?? 0);
    this.#redact = options.redact ?? [];
  }

  entries(filter: JournalFilter = {}): JournalEntry[] {
    const matching = this.#slots.map((slot) => this.#settle(slot)).filter(matchesFilter(filter));
    const limited = filter.limit !== undefined ? matching.slice(-filter.limit) : matching;
    return limited.map((e) => ({ ...e }));
  }

  /** The seq of the newest request so far (0 before the first): a mark that later requests pass with `after`. */
  get lastSeq(): number {
    return this.#seq;
  }

  clear(): void {
    this.#slots = [];
    this.#emit('cleared');
  }

  /**
   * While the returned release is not called, answers' first BODY_PREVIEW_BYTES are kept (`responseBody`)
   * even when `bodies` keeps none: a watcher such as the inspector shows them; nobody else pays for them.
   */
  previewBodies(): () => void {
    this.#previewers += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#previewers -= 1;
    };
  }

  /** Hears every entry as it arrives and completes (copies); returns the unsubscribe. */
  subscribe(listener: (event: JournalEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(type: JournalEvent['type'], slot?: Slot): void {
    if (this.#listeners.size === 0) return;
    const event: JournalEvent =
      slot && type !== 'cleared' ? { type, entry: { ...this.#settle(slot) } } : { type: 'cleared' };
    for (const listener of this.#listeners) listener(event);
  }

  #push(slot: Slot): void {
    this.#slots.push(slot);
    if (this.#slots.length > this.#size) this.#slots.shift();
  }

  /** The slot's entry, filled in from what it was made from, credentials removed (once, on the first read). */
  #settle(slot: Slot): JournalEntry {
    const { entry, unread, answered } = slot;
    if (answered) {
      slot.answered = undefined;
      entry.responseHeaders = redactHeaderMap(answered, this.#redact);
    }
    if (!unread) return entry;
    slot.unread = undefined;
    entry.time = new Date(unread.arrived).toISOString();
    entry.mockTime = new Date(unread.mockArrived).toISOString();
    entry.query = redactQueryOf(unread.url, this.#redact);
    entry.headers = redactHeaderMap(unread.headers, this.#redact);
    entry.user = parseBasicAuth(unread.headers.authorization)?.user ?? null;
    return entry;
  }

  /**
   * Records a request on arrival (`path` without the query) and completes the entry when the response
   * is done or the socket goes. Plain node:http objects are enough.
   */
  open(req: IncomingMessage, res: ServerResponse, path: string, scenario: string | null = null): void {
    const started = performance.now();
    const entry = blankEntry(++this.#seq, req.method ?? 'GET', path, scenario);
    const slot: Slot = {
      entry,
      unread: { arrived: Date.now(), mockArrived: this.#clock.now(), url: req.url ?? '/', headers: req.headers },
      answered: undefined,
    };
    const limit = this.#bodies;
    const responseLimit = limit > 0 ? limit : this.#previewers > 0 ? BODY_PREVIEW_BYTES : 0;
    const requestBytes = limit > 0 ? new CappedBytes(limit) : undefined;
    const responseBytes = responseLimit > 0 ? new CappedBytes(responseLimit) : undefined;
    if (requestBytes) tapRequest(req as Request, requestBytes);
    if (responseBytes) tapAnswer(res as Response, responseBytes);
    this.#push(slot);
    this.#emit('added', slot);
    // A response closes once: a plain listener, no once() wrapper.
    res.on('close', () => {
      const marks = marksOf(res as Response);
      entry.durationMs = performance.now() - started;
      entry.fault = marks.fault ?? null;
      entry.delayMs = marks.delayMs ?? null;
      entry.scenario = marks.scenario ?? scenario;
      entry.network = marks.network ? { ...marks.network, conditions: [...marks.network.conditions] } : null;
      entry.status = res.headersSent ? res.statusCode : null;
      entry.outcome = outcomeOf(res as Response);
      entry.replay = marks.replay ?? null;
      if (mayChangeState(entry.method)) {
        const status = marks.serviceStatus;
        entry.committed = status !== undefined && status >= 200 && status < 300;
      }
      answerHeadersInto(entry, res);
      if (res.headersSent) slot.answered = res.getHeaders();
      if (marks.parent !== undefined) entry.parent = marks.parent;
      const requestBody = requestBytes && bodyOf(requestBytes, limit);
      const responseBody = responseBytes && bodyOf(responseBytes, responseLimit);
      if (requestBody) entry.requestBody = requestBody;
      if (responseBody) entry.responseBody = responseBody;
      this.#emit('updated', slot);
    });
  }

  /** Adds a completed entry for a change the second device made (no request, no headers). */
  note(record: DeviceChangeRecord): JournalEntry {
    const entry: JournalEntry = {
      // "createFolder" -> "CREATE-FOLDER": the kind, in the journal's capitals.
      ...blankEntry(
        ++this.#seq,
        record.kind.replace(/[A-Z]/g, (c) => `-${c}`).toUpperCase(),
        record.path,
        record.scenario,
      ),
      time: new Date().toISOString(),
      mockTime: new Date(this.#clock.now()).toISOString(),
      user: record.user,
      status: record.status,
      outcome: 'answered',
      durationMs: record.durationMs,
      committed: record.committed,
      device: 'second',
      change: record.change,
    };
    const slot: Slot = { entry, unread: undefined, answered: undefined };
    this.#push(slot);
    this.#emit('added', slot);
    this.#emit('updated', slot);
    return { ...entry };
  }

  /** The journal as express middleware (every request that reaches it). */
  middleware(): RequestHandler {
    return (req, res, next) => {
      this.open(req, res, req.path);
      next();
    };
  }
}
