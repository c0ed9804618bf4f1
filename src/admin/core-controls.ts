import { HttpError } from '../http/errors.js';
import type { JournalEntry, JournalFilter } from '../http/journal.js';
import {
  checkedTimeout,
  MAX_WAIT_MS,
  RequestWaitTimeout,
  waitForEntry,
  waitTimeoutMessage,
  countRequests,
  type WaitOptions,
} from '../http/journal-wait.js';
import type { LatencyView } from '../http/wire-types.js';
import { ScenarioError } from '../scenarios/scenario-error.js';
import type { NetworkConditions, ResolvedScenario, ScenarioDefinition } from '../scenarios/types.js';
import { control, type Channel } from '../feature.js';
import { journalFilterOf } from './journal-filter.js';

/** The active scenario as the admin API reports it. */
export interface ScenarioSummary {
  name: string;
  description: string;
  /** The file it came from, or "inline scenario". */
  source: string;
  /** How many fault rules it has. */
  faults: number;
  /** Uniform `{ minMs, maxMs?, seed? }` or log-normal `{ median, p99, maxMs?, seed? }`. */
  latency: LatencyView | null;
  /** The network conditions (bandwidth, packet loss...), or null. */
  network: NetworkConditions | null;
  recording: string | null;
  /** True when it declares a seed (switching to it replaced the state). */
  seeded: boolean;
}

function summary(scenario: ResolvedScenario): ScenarioSummary {
  const { name, description, source, latency, recording } = scenario;
  return {
    name,
    description,
    source,
    faults: scenario.faults.length,
    latency: latency ?? null,
    network: scenario.network ?? null,
    recording: recording ?? null,
    seeded: !!scenario.seed,
  };
}

/** {"name": NAME|PATH} switches by name; any other object is an inline scenario. */
function scenarioSpec(body: unknown): string | ScenarioDefinition {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'send a JSON object: {"name": "NAME or PATH"} or an inline scenario');
  }
  const keys = Object.keys(body);
  const name = (body as { name?: unknown }).name;
  if (keys.length === 1 && typeof name === 'string') return name;
  return body as ScenarioDefinition;
}

const scenarioRefused = (err: unknown): HttpError | undefined =>
  err instanceof ScenarioError ? new HttpError(400, err.message) : undefined;

/** GET /__admin/scenario: the active scenario. */
export const activeScenario = control<void, ScenarioSummary>({
  method: 'GET',
  path: '/scenario',
  read: () => undefined,
  send: () => ({}),
  run: (mock) => summary(mock.scenarios.scenario),
});

/** PUT /__admin/scenario: a switch sent over HTTP (names only; an inline scenario's fixtures inside ./scenarios). */
export const switchScenario = control<string | ScenarioDefinition, ScenarioSummary>({
  method: 'PUT',
  path: '/scenario',
  read: ({ body }) => scenarioSpec(body),
  send: (spec) => ({ body: typeof spec === 'string' ? { name: spec } : spec }),
  run: async (mock, spec) => summary(await mock.scenarios.use(spec, 'http')),
  answerOf: scenarioRefused,
});

/** POST /__admin/reset: the mock's one reset. */
export const reset = control<void, void>({
  method: 'POST',
  path: '/reset',
  status: 204,
  read: () => undefined,
  send: () => ({ body: {} }),
  run: (mock) => mock.reset(),
});

/** GET /__admin/requests: the journal, filtered. */
export const requests = control<JournalFilter, { requests: JournalEntry[] }>({
  method: 'GET',
  path: '/requests',
  read: ({ query }) => {
    const { format, ...filters } = query;
    const filter = journalFilterOf(filters);
    if (format !== undefined && format !== 'json')
      throw new HttpError(400, 'format must be "json" (the default) or "har"');
    return filter;
  },
  send: (filter) => ({ query: { ...filter } }),
  run: (mock, filter) => ({ requests: mock.journal.entries(filter) }),
});

/** DELETE /__admin/requests: the journal emptied. */
export const clearRequests = control<void, void>({
  method: 'DELETE',
  path: '/requests',
  status: 204,
  read: () => undefined,
  send: () => ({}),
  run: (mock) => mock.journal.clear(),
});

/** GET /__admin/requests/count */
export const countMatching = control<JournalFilter, { count: number }>({
  method: 'GET',
  path: '/requests/count',
  read: ({ query }) => journalFilterOf(query),
  send: (filter) => ({ query: { ...filter } }),
  run: (mock, filter) => ({ count: countRequests(mock.journal, filter) }),
});

/** Waits open at once (half of them from one source); more are refused, so forgotten waits cannot pile up. */
export const MAX_WAITERS = 64;

interface RequestWait {
  filter: JournalFilter;
  timeoutMs: number;
  arrived: boolean;
  /** "From now" is from the call's arrival, not from when its route ran (the first call loads the routes). */
  journalMark?: number;
}

/**
 * GET /__admin/requests/wait?FILTER&timeoutMs=N[&arrived=true]: a long poll. Answers `{"request": ENTRY}` as
 * soon as a matching request is in the journal (see waitForEntry for which count), or `{"request": null,
 * "message": ...}` when the time runs out. A client that goes away frees its wait.
 */
export const waitForMatch = control<RequestWait, { request: JournalEntry | null; message?: string }>({
  method: 'GET',
  path: '/requests/wait',
  held: { slots: MAX_WAITERS, what: 'request waits' },
  read: ({ query, journalMark }) => {
    const { timeoutMs, arrived, ...filter } = query;
    return { filter: journalFilterOf(filter), timeoutMs: timeoutOf(timeoutMs), arrived: flagOf(arrived), journalMark };
  },
  send: ({ filter, timeoutMs, arrived }) => ({ query: { ...filter, timeoutMs, arrived: arrived || undefined } }),
  // Not async: the wait starts (and takes its "from now" mark) in the call itself.
  run: (mock, { filter, timeoutMs, arrived, journalMark }, signal) => {
    const fromNow = filter.after === undefined && filter.since === undefined;
    const from = fromNow && journalMark !== undefined ? { ...filter, after: journalMark } : filter;
    const wait = waitForEntry(mock.journal, from, { timeoutMs, arrived });
    signal.addEventListener('abort', () => wait.cancel(), { once: true });
    return wait.done.then((request) =>
      request ? { request } : { request: null, message: waitTimeoutMessage(filter, timeoutMs, wait.seen) },
    );
  },
});

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

/** The controls every mock has: its scenario, its reset, its journal. */
export const CORE_CONTROLS = [
  activeScenario,
  switchScenario,
  reset,
  requests,
  clearRequests,
  countMatching,
  waitForMatch,
] as const;

/** The journal and reset calls of every handle (startMock, createApp's controls, interceptCloud, connectMock). */
export interface JournalControls {
  /** State back to the active scenario's seed; fault counters, the journal and a replay's cursor too. */
  reset(): Promise<void>;
  /** The request journal, oldest first, credentials removed; a filter picks method, path glob, status, since. */
  requests(filter?: JournalFilter): Promise<JournalEntry[]>;
  /**
   * Resolves with the first request matching `filter` once its answer is done (`{ arrived: true }`: as it
   * arrives), or rejects with a RequestWaitTimeout after `timeoutMs` (default 4000). Only requests that arrive
   * after the call count, unless the filter names a mark (`after: seq` or `since: ISO time`): then one already
   * recorded past the mark counts too. No polling: the journal's own events, or one long-poll admin call.
   */
  waitForRequest(filter?: JournalFilter, options?: WaitOptions): Promise<JournalEntry>;
  /** How many requests in the journal match (it keeps the last `journalSize`, 1000 by default). */
  countRequests(filter?: JournalFilter): Promise<number>;
}

export function journalControls(channel: Channel): JournalControls {
  return {
    reset: () => channel.call(reset, undefined),
    requests: async (filter = {}) => (await channel.call(requests, filter)).requests,
    countRequests: async (filter = {}) => (await channel.call(countMatching, filter)).count,
    waitForRequest: async (filter = {}, options = {}) => {
      // Over HTTP, "from now" is this process's clock at the call, not the moment the wait reaches the mock:
      // a request the caller sends right after calling must count even if it overtakes the wait.
      const marked = filter.after !== undefined || filter.since !== undefined;
      const since = channel.inProcess || marked ? filter.since : new Date().toISOString();
      const timeoutMs = checkedTimeout(options.timeoutMs, channel.inProcess ? undefined : MAX_WAIT_MS);
      const answer = await channel.call(waitForMatch, {
        filter: since === undefined ? filter : { ...filter, since },
        timeoutMs,
        arrived: options.arrived ?? false,
      });
      if (answer.request) return answer.request;
      throw new RequestWaitTimeout(answer.message ?? `no request matching the filter arrived within ${timeoutMs} ms`);
    },
  };
}
