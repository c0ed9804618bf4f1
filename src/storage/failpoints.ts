/**
 * Failpoints: named places in the durable path where a crash or race test stops the process exactly,
 * instead of hoping a timer lands inside a window. Tests arm them; nothing else does.
 *
 * Armed from the environment once, when this module loads (a `csp-mock serve` child started by a
 * test): CSP_MOCK_FAILPOINTS="name:kill[@hit],...". `kill` ends the process with SIGKILL at that
 * point, as a crash or `kill -9` would; `throw` throws an Error there instead (a failure the server
 * must survive); `@hit` picks the n-th time the point is reached (default 1).
 * No HTTP route, option or config file reaches this module.
 *
 * Unarmed, a failpoint is one comparison against undefined.
 */

/** Every failpoint, in the order a change reaches them. */
export const FAILPOINTS = [
  /** A content write: its blob is durable, its log record not written yet. */
  'blob-durable-before-record',
  /** A commit group: its records written to the log, not yet synced. */
  'log-written-before-sync',
  /** A commit group: synced, not yet answered. */
  'log-synced-before-answer',
  /** Any snapshot write: the temp file is whole and synced, not yet renamed over the state file. */
  'snapshot-temp-before-rename',
  /** Compaction: the new snapshot is durable, the log not yet cut down to the records after it. */
  'compaction-snapshot-before-log-cut',
  /** Compaction or replace: the shorter log is in its temp file, not yet renamed over the log. */
  'log-rewrite-before-rename',
  /** A scenario switch or reset: the new state's blobs are written, the state not yet replaced. */
  'switch-blobs-before-replace',
  /** A scenario switch or reset: the new snapshot is durable, the old log not yet emptied. */
  'switch-snapshot-before-log-cut',
  /** A COPY: the copy is prepared in memory, not yet committed. */
  'copy-prepared-before-commit',
  /** A listing (REST contents, PROPFIND, a /dav collection page): a page of children about to be written. */
  'listing-page-read',
] as const;

export type FailpointName = (typeof FAILPOINTS)[number];

/** What an armed point does, and the hits left before it fires (1: the next one). */
interface Armed {
  action: 'kill' | 'throw';
  hits: number;
}

export const FAILPOINTS_ENV = 'CSP_MOCK_FAILPOINTS';

let armed: Map<FailpointName, Armed> | undefined;

/** Parses CSP_MOCK_FAILPOINTS; an unknown name or action is an Error (a test with a typo must not pass). */
export function parseFailpoints(text: string): Map<FailpointName, Armed> {
  const out = new Map<FailpointName, Armed>();
  for (const part of text.split(',').map((p) => p.trim())) {
    if (part === '') continue;
    const match = /^([a-z-]+):(kill|throw)(?:@([1-9][0-9]*))?$/.exec(part);
    const name = match?.[1] as FailpointName | undefined;
    if (!match || !name || !FAILPOINTS.includes(name)) {
      throw new Error(
        `${FAILPOINTS_ENV}: "${part}" is not name:kill[@hit] or name:throw[@hit] with a name of: ${FAILPOINTS.join(', ')}`,
      );
    }
    out.set(name, { action: match[2] as Armed['action'], hits: Number(match[3] ?? 1) });
  }
  return out;
}

/** Marks the point `name`: nothing happens unless a test armed it. */
export function failpoint(name: FailpointName): void {
  if (armed === undefined) return;
  const point = armed.get(name);
  if (point === undefined) return;
  if (point.hits > 1) return void (point.hits -= 1);
  if (point.action === 'throw') {
    armed.delete(name);
    throw new Error(`failpoint ${name}`);
  }
  // A signal a process sends itself is delivered before kill() returns: nothing after this line runs.
  process.kill(process.pid, 'SIGKILL');
}

const fromEnv = process.env[FAILPOINTS_ENV];
if (fromEnv) armed = parseFailpoints(fromEnv);
