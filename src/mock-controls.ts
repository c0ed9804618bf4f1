import type { ClockControls } from './clock/clock-controls.js';
import type { JournalEntry, JournalFilter } from './http/journal.js';
import type { DeviceChange } from './scenarios/device-changes.js';
import { countRequests, waitForRequest, type WaitOptions } from './http/journal-wait.js';
import type { MockApp } from './app.js';
import { auditJournal } from './audit/audit.js';
import type { AuditOptions, AuditReport } from './audit/audit-types.js';

/**
 * The calls a test makes between its cases, alike on every mock a suite can hold: startMock's (in this
 * process), connectMock's (another process) and interceptCloud's (no port). All are async, so one test
 * body runs unchanged against any of them.
 */
export interface MockControls {
  /** State back to the active scenario's seed; fault counters, the journal and a replay's cursor too. */
  reset(): Promise<void>;
  /** The request journal, oldest first, credentials removed; a filter picks method, path glob, status, since. */
  requests(filter?: JournalFilter): Promise<JournalEntry[]>;
  /** The mock's clock (entity times, Date, Last-Modified, lock expiry): `await mock.clock.advance('2d')`. */
  readonly clock: ClockControls;
  /**
   * A second device changes the account now (one change or a list, in order), through the domain as a
   * client would: `mock.change({ user: 'demo', rename: '/Documents/report.txt', to: 'old.txt' })`. Resolves
   * with the changes' journal entries; rejects with ChangeRefusedError (404, 409) when one cannot apply.
   */
  change(change: DeviceChange | readonly DeviceChange[]): Promise<JournalEntry[]>;
  /**
   * Resolves with the first request matching `filter` once its answer is done (`{ arrived: true }`: as it
   * arrives), or rejects with a RequestWaitTimeout after `timeoutMs` (default 4000). Only requests that arrive
   * after the call count, unless the filter names a mark (`after: seq` or `since: ISO time`): then one already
   * recorded past the mark counts too. No polling: the journal's own events, or one long-poll admin call.
   */
  waitForRequest(filter?: JournalFilter, options?: WaitOptions): Promise<JournalEntry>;
  /** How many requests in the journal match (it keeps the last `journalSize`, 1000 by default). */
  countRequests(filter?: JournalFilter): Promise<number>;
  /**
   * Reads the journal (`filter` picks the requests, e.g. one user's) and reports what the client did that a
   * careful client does not: retries without backoff or against Retry-After, repeats after an ambiguous
   * commit, full re-uploads, ETags never revalidated, N+1 listings, polling too fast. See src/audit/README.md.
   */
  audit(options?: AuditOptions & { filter?: JournalFilter }): Promise<AuditReport>;
}

/** The controls of a mock in this process (startMock's, interceptCloud's, the Playwright fixture's), over its app. */
export function localControls(mock: MockApp): MockControls {
  return {
    reset: () => mock.reset(),
    requests: async (filter) => mock.requests(filter),
    change: (change) => mock.change(change),
    clock: mock.clock,
    waitForRequest: (filter, waitOptions) => waitForRequest(mock.journal, filter, waitOptions),
    countRequests: async (filter) => countRequests(mock.journal, filter),
    audit: async (auditOptions = {}) => auditJournal(mock.requests(auditOptions.filter), auditOptions),
  };
}
