import type { Response } from 'express';

/** How a request ended on the wire. */
export type RequestOutcome = 'pending' | 'answered' | 'closed' | 'reset' | 'truncated' | 'aborted';

/** What a scenario's middleware leaves on the response for the journal and the request log. */
export interface JournalMarks {
  fault?: string;
  outcome?: RequestOutcome;
  /** For 'truncated': how many body bytes went out before the cut. */
  truncatedAfterBytes?: number;
  scenario?: string;
}

export function marksOf(res: Response): JournalMarks {
  const existing = res.locals['journal'] as JournalMarks | undefined;
  if (existing) return existing;
  const created: JournalMarks = {};
  res.locals['journal'] = created;
  return created;
}

export function markFault(res: Response, fault: string): void {
  marksOf(res).fault = fault;
}
export function markOutcome(res: Response, outcome: RequestOutcome, truncatedAfterBytes?: number): void {
  const marks = marksOf(res);
  marks.outcome = outcome;
  if (truncatedAfterBytes !== undefined) marks.truncatedAfterBytes = truncatedAfterBytes;
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
