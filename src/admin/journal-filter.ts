import { HttpError } from '../http/errors.js';
import { isStatusClass, type JournalFilter, type RequestOutcome, type StatusClass } from '../http/journal.js';

function optionalInt(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value))
    throw new HttpError(400, `${name} must be a whole number, got ${JSON.stringify(value)}`);
  return Number(value);
}

function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new HttpError(400, `give ${name} once`);
  return value;
}

const OUTCOMES: readonly RequestOutcome[] = ['pending', 'answered', 'closed', 'reset', 'truncated', 'aborted'];

function optionalOutcome(value: unknown): RequestOutcome | undefined {
  const text = optionalString(value, 'outcome');
  if (text === undefined || (OUTCOMES as readonly string[]).includes(text)) return text as RequestOutcome | undefined;
  throw new HttpError(400, `outcome must be one of ${OUTCOMES.join(', ')}, got "${text}"`);
}

/** A status (404) or a class of them (4xx). */
function optionalStatus(value: unknown): number | StatusClass | undefined {
  if (typeof value === 'string' && isStatusClass(value)) return value;
  if (value === undefined || (typeof value === 'string' && /^\d+$/.test(value))) return optionalInt(value, 'status');
  throw new HttpError(400, `status must be a status (404) or a class of them (4xx), got ${JSON.stringify(value)}`);
}

/** A whole number in a query (`?inlineLimit=N`), or a 400 naming it. */
export const queryInt = optionalInt;

/** ?method=GET&path=/v2/**&status=404&since=ISO&after=SEQ&limit=N&user=NAME&fault=RULE&outcome=reset */
export function journalFilterOf(query: Record<string, unknown>): JournalFilter {
  const filter: JournalFilter = {
    method: optionalString(query['method'], 'method'),
    path: optionalString(query['path'], 'path'),
    status: optionalStatus(query['status']),
    since: optionalString(query['since'], 'since'),
    after: optionalInt(query['after'], 'after'),
    limit: optionalInt(query['limit'], 'limit'),
    user: optionalString(query['user'], 'user'),
    fault: optionalString(query['fault'], 'fault'),
    outcome: optionalOutcome(query['outcome']),
  };
  if (filter.since !== undefined && Number.isNaN(Date.parse(filter.since)))
    throw new HttpError(400, `since must be an ISO time, got "${filter.since}"`);
  return filter;
}
