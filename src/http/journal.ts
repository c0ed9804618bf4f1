import type { ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { parseBasicAuth } from './auth.js';

/** How a request ended on the wire. */
export type RequestOutcome = 'pending' | 'answered' | 'closed' | 'reset' | 'truncated' | 'aborted';

/** One journal line: what a client sent and got, with every credential removed. */
export interface JournalEntry {
  seq: number;
  /** ISO time the request arrived. */
  time: string;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  /** The login name from Basic auth (never the password). */
  user: string | null;
  status: number | null;
  outcome: RequestOutcome;
  durationMs: number | null;
  /** The name of the fault rule that applied, if any. */
  fault: string | null;
  scenario: string | null;
  /** Replay only: served from the recording (which exchange), missed (the near-miss text), or answered by the fallback. */
  replay: ReplayNote | null;
}

export interface ReplayNote {
  outcome: 'served' | 'missed' | 'emulated' | 'proxied';
  exchange?: number;
  nearMiss?: string;
}

/** What a live subscriber hears: an entry on arrival ('added'), again when done ('updated'), or the journal cleared. */
export type JournalEvent = { type: 'added' | 'updated'; entry: JournalEntry } | { type: 'cleared' };

const REMOVED = '[removed]';
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-cloud-key', 'x-admin-token']);
const SECRET_QUERY = /pass|secret|token|key|auth|sig/i;
const MAX_ENTRIES = 1000;

/** Marks a scenario's middleware leaves on the response for the journal. */
interface JournalMarks {
  fault?: string;
  outcome?: RequestOutcome;
  scenario?: string;
  replay?: ReplayNote;
}

function marksOf(res: Response): JournalMarks {
  // The replayer also runs as a plain Node listener, where a response has no locals.
  const locals = (res.locals as Record<string, unknown> | undefined) ?? {};
  const existing = locals['journal'] as JournalMarks | undefined;
  if (existing) return existing;
  const created: JournalMarks = {};
  if (res.locals) res.locals['journal'] = created;
  return created;
}

export function markFault(res: Response, fault: string): void {
  marksOf(res).fault = fault;
}
export function markOutcome(res: Response, outcome: RequestOutcome): void {
  marksOf(res).outcome = outcome;
}
export function markScenario(res: Response, scenario: string): void {
  marksOf(res).scenario = scenario;
}
export function markReplay(res: ServerResponse, note: ReplayNote): void {
  marksOf(res as Response).replay = note;
}

function redactedHeaders(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    out[name] = SECRET_HEADERS.has(name) ? REMOVED : Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function redactedQuery(req: Request): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const params = new URL(req.originalUrl, 'http://x').searchParams;
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name).map((v) => (SECRET_QUERY.test(name) ? REMOVED : v));
    out[name] = values.length === 1 ? values[0]! : values;
  }
  return out;
}

/** The last requests the service saw (bounded), oldest first. */
export class RequestJournal {
  #entries: JournalEntry[] = [];
  #seq = 0;
  readonly #listeners = new Set<(event: JournalEvent) => void>();

  entries(): JournalEntry[] {
    return this.#entries.map((e) => ({ ...e }));
  }

  clear(): void {
    this.#entries = [];
    this.#emit({ type: 'cleared' });
  }

  /** Hears every entry as it arrives and completes (copies); returns the unsubscribe. */
  subscribe(listener: (event: JournalEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(event: JournalEvent): void {
    for (const listener of this.#listeners) listener(event);
  }

  /** Records each request on arrival and completes the entry when the response is done or the socket goes. */
  middleware(): RequestHandler {
    return (req, res, next) => {
      const started = process.hrtime.bigint();
      const entry: JournalEntry = {
        seq: ++this.#seq,
        time: new Date().toISOString(),
        method: req.method,
        path: req.path,
        query: redactedQuery(req),
        headers: redactedHeaders(req),
        user: parseBasicAuth(req.headers.authorization)?.user ?? null,
        status: null,
        outcome: 'pending',
        durationMs: null,
        fault: null,
        scenario: null,
        replay: null,
      };
      this.#entries.push(entry);
      if (this.#entries.length > MAX_ENTRIES) this.#entries.shift();
      this.#emit({ type: 'added', entry: { ...entry } });
      res.once('close', () => {
        const marks = marksOf(res);
        entry.durationMs = Number(process.hrtime.bigint() - started) / 1e6;
        entry.fault = marks.fault ?? null;
        entry.scenario = marks.scenario ?? null;
        entry.status = res.headersSent ? res.statusCode : null;
        const closed = String(res.getHeader('connection') ?? '').toLowerCase() === 'close';
        entry.outcome = marks.outcome ?? (!res.writableFinished ? 'aborted' : closed ? 'closed' : 'answered');
        entry.replay = marks.replay ?? null;
        this.#emit({ type: 'updated', entry: { ...entry } });
      });
      next();
    };
  }
}
