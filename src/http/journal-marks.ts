import type { ServerResponse } from 'node:http';
import type { Response } from 'express';
import type { NetworkRecord, ReplayNote, RequestOutcome } from './wire-types.js';

export type { ReplayNote, RequestOutcome };

/** What a scenario's middleware leaves on the response for the journal and the request log. */
export interface JournalMarks {
  fault?: string;
  outcome?: RequestOutcome;
  /** For 'truncated': how many body bytes went out before the cut. */
  truncatedAfterBytes?: number;
  scenario?: string;
  replay?: ReplayNote;
  /** The network conditions that shape this request, counting its bytes as they go. */
  network?: NetworkRecord;
  /** The status the service (emulator, recording or upstream) answered with, before any fault changed what went out. */
  serviceStatus?: number;
  /** Milliseconds the scenario held the request (latency and a rule's delay). */
  delayMs?: number;
  /** A read of one entity: the id of its container. */
  parent?: string;
}

export function marksOf(res: Response): JournalMarks {
  // The replayer also runs as a plain Node listener, where a response has no locals.
  const locals = res.locals as Express.Locals | undefined;
  if (locals?.journal) return locals.journal;
  const created: JournalMarks = {};
  if (locals) locals.journal = created;
  return created;
}

export function markReplay(res: ServerResponse, note: ReplayNote): void {
  marksOf(res as Response).replay = note;
}

export function markFault(res: Response, fault: string): void {
  marksOf(res).fault = fault;
}
export function markOutcome(res: Response, outcome: RequestOutcome, truncatedAfterBytes?: number): void {
  const marks = marksOf(res);
  marks.outcome = outcome;
  if (truncatedAfterBytes !== undefined) marks.truncatedAfterBytes = truncatedAfterBytes;
}
/** The record the network conditions keep counting into while the request runs. */
export function markNetwork(res: Response, record: NetworkRecord): void {
  marksOf(res).network = record;
}
/** Adds to the time the scenario held the request (the latency drawn, then a rule's delay). */
export function markDelay(res: Response, ms: number): void {
  const marks = marksOf(res);
  marks.delayMs = (marks.delayMs ?? 0) + ms;
}
/** A read of one file or container: which container holds it, for the journal. */
export function markParent(res: Response, parentId: string): void {
  marksOf(res).parent = parentId;
}
export function markScenario(res: Response, scenario: string): void {
  marksOf(res).scenario = scenario;
}

/** How the request ended, from the marks and the response: what the log line and the journal say. */
export function outcomeOf(res: Response): RequestOutcome {
  const marks = marksOf(res);
  if (marks.outcome) return marks.outcome;
  if (!res.writableFinished) return 'aborted';
  return String(res.getHeader('connection') ?? '').toLowerCase() === 'close' ? 'closed' : 'answered';
}

/** Words for a person: "closed", "reset by the mock", "truncated after 10 bytes", "aborted by the client". */
export function describeOutcome(res: Response): string {
  const outcome = outcomeOf(res);
  switch (outcome) {
    case 'reset':
      return 'reset by the mock';
    case 'truncated':
      return `truncated after ${marksOf(res).truncatedAfterBytes ?? '?'} bytes`;
    case 'aborted':
      return 'aborted by the client';
    default:
      return outcome;
  }
}
