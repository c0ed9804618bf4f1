/**
 * The JSON the admin API sends: the request journal and the inspector's views. One module for both
 * sides: the server (http/journal.ts, admin/) and the inspector page (admin/inspector-page/, compiled
 * for the browser by its own tsconfig, which includes this file). Types only, and no imports, so
 * the page needs nothing of Node.
 */

/** How a request ended on the wire. */
export type RequestOutcome = 'pending' | 'answered' | 'closed' | 'reset' | 'truncated' | 'aborted';

/** Replay only: how the replayer answered. */
export interface ReplayNote {
  outcome: 'served' | 'missed' | 'emulated' | 'proxied';
  exchange?: number;
  nearMiss?: string;
}

/** Which network conditions shaped a request, and how many body bytes went each way under them. */
export interface NetworkRecord {
  /** e.g. ["bandwidth", "hang"], in the order they apply. */
  conditions: string[];
  /** Request body bytes the server read from the client. */
  bytesIn: number;
  /** Answer body bytes the server handed to the socket. */
  bytesOut: number;
}

/** A body as the journal keeps it: the first bytes (text, redacted) and the full size. */
export interface JournalBody {
  bytes: number;
  /** UTF-8 text, secrets removed; absent for binary bodies. */
  text?: string;
  /** True when only the first bytes (`journalBodies`, or the inspector's 4 KiB preview) were kept. */
  truncated: boolean;
}

/** One journal line: what a client sent and got, with every credential removed. */
export interface JournalEntry {
  seq: number;
  /** ISO time the request arrived (real time, whatever the mock's clock shows). */
  time: string;
  /** The same moment on the mock's clock (differs from `time` when the clock is skewed, frozen or moved). */
  mockTime: string;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  /** The login name from Basic auth (never the password). */
  user: string | null;
  status: number | null;
  outcome: RequestOutcome;
  durationMs: number | null;
  /** Milliseconds the scenario held the request before acting on it (its latency plus a rule's delay); null: none. */
  delayMs: number | null;
  /** The name of the fault rule that applied, if any. */
  fault: string | null;
  scenario: string | null;
  /** The network conditions that applied and the body bytes each way, if any applied. */
  network: NetworkRecord | null;
  /** Replay only: served from the recording (which exchange), missed (the near-miss text), or answered by the fallback. */
  replay: ReplayNote | null;
  /** The answer's ETag, when it carried one. */
  etag?: string;
  /** The answer's Retry-After, when it carried one (seconds or an HTTP date, as sent). */
  retryAfter?: string;
  /** A REST read of one file or container: the id of the container holding it (to spot one read per listed child). */
  parent?: string;
  /** The answer's headers as sent, credentials removed; absent when no answer was sent. */
  responseHeaders?: Record<string, string>;
  /**
   * With the journalBodies option: the request and response bodies, size-capped and redacted; while the
   * inspector is open, the first 4 KiB of each answer too.
   */
  requestBody?: JournalBody;
  responseBody?: JournalBody;
  /**
   * Requests that may change state (every method but GET, HEAD, OPTIONS, PROPFIND, REPORT, SEARCH, TRACE):
   * whether the service accepted the change (it answered 2xx), whatever the client then received (a fault
   * may reset the connection after the commit). Absent for reads and while pending.
   */
  committed?: boolean;
  /** Set on the entries of changes the second device made (not requests a client sent). */
  device?: 'second';
  /** The second device's change: what it was, what fired it, and why it failed when it did. */
  change?: DeviceChangeNote;
}

/** A second-device change as the journal shows it (method is its kind in capitals, path the object's path). */
export interface DeviceChangeNote {
  /** e.g. "rename", "overwrite", "delete". */
  kind: string;
  /** What fired it: "on demand", "the 2nd PUT to /v2/files/ID/content (#12)", "after 500 ms", "random editor". */
  trigger: string;
  /** The change's own arguments (new name, destination, tags...), for a person reading the journal. */
  detail?: string;
  /** Why it could not be applied (nothing changed). */
  error?: string;
}

export interface InspectedLock {
  scope: string;
  depth: string;
  /** The lock sits on this node (true) or on a container above it (false). */
  direct: boolean;
  /** The client's <owner> XML, as sent. */
  owner: string;
  /** ISO time, or null for an infinite lock. */
  expires: string | null;
}

export interface InspectedNode {
  id: string;
  kind: 'container' | 'file';
  name: string;
  bytes: number;
  version: number;
  created: string;
  modified: string;
  mimeType: string;
  public: boolean;
  tags: string[];
  metadata: Record<string, string>;
  locks: InspectedLock[];
  /** The REST address, relative to the mock's origin. */
  rest: string;
  /** The WebDAV path, or null for an object in the recycle bin. */
  dav: string | null;
  /** Containers: how many live members. */
  members?: number;
  /** Recycled objects: ISO time it was moved to the recycle bin. */
  recycled?: string;
}

export interface InspectedUser {
  user: string;
  rootId: string;
  members: number;
  recycled: number;
  /** The user's CDMI notification queues (their ranges and counts, not their values). */
  queues: InspectedQueue[];
}

export interface InspectedQueue {
  name: string;
  /** "<first>-<last>" of the unread values, "" when none. */
  queueValues: string;
  values: number;
  /** Values dropped unread because the queue was full. */
  dropped: number;
  limit: number;
  events: string[];
}

export interface Listing {
  nodes: InspectedNode[];
  /** Where this page starts among the members. */
  start: number;
  /** Members after this page. */
  more: number;
  /** The `start` of the next page (`inspector/children?...&start=N`), null on the last. */
  next: number | null;
}

/** A fault rule as its scenario declares it (scenarios/types.ts FaultRule); the page reads its fields by name. */
export type InspectedRuleBody = { match: { method: string | string[]; path: string } } & Record<string, unknown>;

export interface InspectedRule {
  label: string;
  rule: InspectedRuleBody;
  /** Requests it matched. */
  matched: number;
  /** Requests it fired on. */
  applied: number;
}

export interface InspectedExchange {
  id: number;
  client: string | null;
  method: string;
  path: string;
  status: number;
  /** How often replay has served it since the switch or the last reset. */
  served: number;
}

/** A scenario's latency as declared: uniform (minMs to maxMs) or log-normal (median and p99, durations). */
export type LatencyView =
  | { minMs: number; maxMs?: number; seed?: number }
  | { median: string | number; p99: string | number; maxMs?: number; seed?: number };

export interface InspectedScenario {
  name: string;
  description: string;
  source: string;
  latency: LatencyView | null;
  seeded: boolean;
  faults: InspectedRule[];
  recording: { name: string; exchanges: InspectedExchange[]; more: number } | null;
}

export interface ScenarioListing {
  name: string;
  description: string;
  file: string;
  builtIn: boolean;
  /** The file's own "name" field, when it differs from the file name. */
  declaredName?: string;
}

/** One tenant of a served mock (GET /__admin/tenants): an isolated mock under /t/<name>. */
export interface TenantView {
  name: string;
  /** Its base URL: REST at <url>/v2, WebDAV at <url>/dav, its admin API at <url>/__admin. */
  url: string;
  /** Its active scenario's name. */
  scenario: string;
  /** ISO times (real time): when it was made, and when a request last reached it. */
  created: string;
  lastUsed: string;
  /** When it is closed if nothing reaches it before (ISO); null: never. */
  expires: string | null;
}
