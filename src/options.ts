import { resolve } from 'node:path';
import { resolveCorsOrigins } from './http/cors.js';
import { MockClock, type ClockSettings } from './clock/mock-clock.js';
import type { ReplayHandlerFactory, ScenarioDefinition } from './scenarios/types.js';
import type { MockMode } from './mode.js';
import { parseGenerateShorthand } from './scenarios/generate/generate-shorthand.js';
import { resolveGenerateSpec, type GeneratePlan, type GenerateSpec } from './scenarios/generate/generate-spec.js';
import { defaultOf, DEFAULT_USERS } from './option-table.js';

export { DEFAULT_HOST, DEFAULT_PORT, DEFAULT_TIMEOUTS, DEFAULT_USERS, type ServerTimeouts } from './option-table.js';

/** A report of long work under way, for `onProgress` (the CLI draws it as a line on a terminal). */
export interface Progress {
  /**
   * 'generate': generated accounts being built (at start, on a reset or a scenario switch); 'load': a
   * `data` state file being read at start; 'verify': recorded exchanges replayed; 'import-har': HAR entries imported.
   */
  task: 'generate' | 'load' | 'verify' | 'import-har';
  done: number;
  total: number;
  /** What `done` and `total` count. */
  unit: 'objects' | 'bytes' | 'exchanges' | 'entries';
  /** The task's last report. */
  finished: boolean;
}

/** Options shared by the CLI and the programmatic API; their flags and defaults are in option-table.ts. */
export interface MockOptions {
  /** Relative paths (data, scenario files, recordings, record's out) resolve against it. Default: process.cwd(). */
  baseDir?: string;
  /** Login name to password. Default: { demo: 'demo' }. */
  users?: Record<string, string>;
  /** JSON state file; file bytes are kept in "<data>.blobs/" beside it. Default: in memory. */
  data?: string;
  /** With `data`: compact the change log once it is larger than this (default: max(4 MiB, snapshot size)). */
  compactAfterBytes?: number;
  /** What a fresh state holds: 'demo' (a small tree per user, the default) or 'empty'. */
  seed?: 'demo' | 'empty';
  /**
   * A generated tree per user in place of `seed` (a scenario's seed still wins): files of synthetic
   * content, e.g. `{ files: 100000, folders: 2000, size: { median: '200KB', p99: '20MB' }, seed: 7 }`
   * or the CLI's shorthand `'files=100000,folders=2000,seed=7'` (scenarios/README.md, "Generated accounts").
   */
  generate?: GenerateSpec | string;
  /**
   * Called as long work goes on: generated accounts built (a report per 1,000 objects), a `data` state read
   * (per MiB); work smaller than one step reports only its end. The mock itself never prints progress.
   */
  onProgress?: (progress: Progress) => void;
  /** Values a CDMI notification queue keeps unread before it drops its oldest (default 10,000). */
  queueLimit?: number;
  /** Base of the absolute links in XML (e.g. https://cloud.example.test). Default: the request's Host. */
  publicUrl?: string;
  /** Refuse requests without X-Client-Specification: 2 (400) instead of logging a warning. */
  strict?: boolean;
  /** true logs to stdout; a function receives each line. Default: silent. */
  log?: boolean | ((line: string) => void);
  /** Request log lines as 'text' (default) or 'json' (one object a line). */
  logFormat?: 'text' | 'json';
  /** Log request and response headers and the first bytes of bodies too (secrets removed). */
  verbose?: boolean;
  /** How many requests the journal keeps (default 1000). */
  journalSize?: number;
  /** Keep up to this many bytes of each request and response body in the journal (default 0: none). */
  journalBodies?: number;
  /**
   * MiB of recently read file content kept in memory to answer reads (whole, Range, conditional)
   * without touching the disk; files over 16 MiB always stream. Default 64; 0 turns the cache off.
   */
  contentCacheMiB?: number;
  /** A built-in or ./scenarios name, a path to a scenario file, or an inline scenario. Default: 'default'. */
  scenario?: string | ScenarioDefinition;
  /** When set, /__admin requires it (Authorization: Bearer TOKEN or X-Admin-Token). Default: open. */
  adminToken?: string;
  /**
   * More Host names to answer besides IP addresses, localhost and the public URL's host
   * ("name", ".domain" for it and its subdomains, "*" for any). Default: none.
   */
  allowedHosts?: string[];
  /**
   * Web pages that may call /v2, /dav and /cdmi from a browser (CORS) besides the loopback ones
   * (http(s)://localhost, *.localhost, 127.0.0.1, [::1], any port), e.g. ["https://app.example.test"];
   * "*" allows every origin (a warning says so). The admin API never answers another origin. Default: none.
   */
  corsOrigins?: string[];
  /** false: no CORS at all (no headers, preflights go to authentication as any OPTIONS). Default: true. */
  cors?: boolean;
  /**
   * How long a scenario switch or reset waits for requests in flight (which finish under the
   * scenario they arrived under) before closing their connections. Default 5000 ms.
   */
  switchGraceMs?: number;
  /** Builds the handler that replays a recording named by a scenario's "recording" (src/replay/scenario-replay.ts). */
  replayHandler?: ReplayHandlerFactory;
  /** emulate (default), record through a proxy to an upstream, or replay a recording. */
  mode?: MockMode;
  /** The mock's clock: `{ offset: '-5m' }` (skewed) or `{ frozen: '2025-01-01T00:00:00Z' }`. Default: real time. */
  clock?: ClockSettings;
}

export interface ResolvedOptions {
  /** Absolute. */
  baseDir: string;
  users: ReadonlyMap<string, string>;
  /** Absolute. */
  data: string | undefined;
  compactAfterBytes: number | undefined;
  seed: 'demo' | 'empty';
  generate: GeneratePlan | undefined;
  onProgress: ((progress: Progress) => void) | undefined;
  queueLimit: number;
  publicUrl: string | undefined;
  strict: boolean;
  log: (line: string) => void;
  logFormat: 'text' | 'json';
  verbose: boolean;
  journalSize: number;
  journalBodies: number;
  contentCacheMiB: number;
  scenario: string | ScenarioDefinition;
  adminToken: string | undefined;
  allowedHosts: string[];
  /** false: CORS off. */
  cors: boolean;
  /** Listed origins, as a browser sends them (scheme://host[:port]), or "*". */
  corsOrigins: string[];
  switchGraceMs: number | undefined;
  replayHandler: ReplayHandlerFactory | undefined;
  mode: MockMode;
  /** This mock's clock, started from the `clock` option (a scenario's `clock` applies over it). */
  clock: MockClock;
}

export function resolveOptions(options: MockOptions = {}): ResolvedOptions {
  const users = new Map(Object.entries(options.users ?? DEFAULT_USERS));
  if (users.size === 0) throw new Error('at least one user is needed');
  for (const name of users.keys()) {
    if (!name || name.includes(':')) throw new Error(`invalid user name "${name}"`);
  }
  if (options.publicUrl !== undefined && !/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/i.test(options.publicUrl)) {
    throw new Error(`public URL must look like http(s)://host[:port][/path], got "${options.publicUrl}"`);
  }
  const bound = options.compactAfterBytes;
  if (bound !== undefined && (!Number.isInteger(bound) || bound < 1))
    throw new Error(`compactAfterBytes must be a positive whole number, got ${bound}`);
  // At most 100,000 values a queue: with 16 queues a user, what one user's queues hold stays bounded.
  const queueLimit = options.queueLimit;
  if (queueLimit !== undefined && (!Number.isInteger(queueLimit) || queueLimit < 1 || queueLimit > 100_000))
    throw new Error(`queueLimit must be a whole number from 1 to 100000, got ${queueLimit}`);
  for (const key of ['journalSize', 'journalBodies'] as const) {
    const value = options[key];
    if (value !== undefined && (!Number.isInteger(value) || value < 0))
      throw new Error(`${key} must be a whole number >= 0, got ${value}`);
  }
  if (options.logFormat !== undefined && options.logFormat !== 'text' && options.logFormat !== 'json') {
    throw new Error(`logFormat must be "text" or "json", got "${String(options.logFormat)}"`);
  }
  const log = typeof options.log === 'function' ? options.log : options.log ? logToConsole : () => undefined;
  const baseDir = resolve(options.baseDir ?? process.cwd());
  return {
    baseDir,
    users,
    data: options.data === undefined || options.data === '' ? undefined : resolve(baseDir, options.data),
    compactAfterBytes: options.compactAfterBytes,
    seed: options.seed ?? 'demo',
    generate: generatePlanOf(options.generate),
    onProgress: options.onProgress,
    queueLimit: options.queueLimit ?? defaultOf('queue-limit'),
    publicUrl: options.publicUrl?.replace(/\/+$/, ''),
    strict: options.strict ?? defaultOf('strict'),
    log,
    logFormat: options.logFormat ?? defaultOf('log-format'),
    verbose: options.verbose ?? defaultOf('verbose'),
    journalSize: options.journalSize ?? defaultOf('journal-size'),
    journalBodies: options.journalBodies ?? defaultOf('journal-bodies'),
    contentCacheMiB: contentCacheMiBOf(options.contentCacheMiB),
    scenario: options.scenario ?? 'default',
    adminToken: options.adminToken || undefined,
    allowedHosts: [...(options.allowedHosts ?? [])],
    cors: options.cors ?? defaultOf('cors'),
    corsOrigins: resolveCorsOrigins(options.corsOrigins ?? []),
    switchGraceMs: options.switchGraceMs,
    replayHandler: options.replayHandler,
    mode: absoluteMode(options.mode ?? { kind: 'emulate' }, baseDir),
    clock: new MockClock(options.clock),
  };
}

function generatePlanOf(given: GenerateSpec | string | undefined): GeneratePlan | undefined {
  if (given === undefined) return undefined;
  return resolveGenerateSpec(typeof given === 'string' ? parseGenerateShorthand(given) : given);
}

function contentCacheMiBOf(given: number | undefined): number {
  if (given === undefined) return defaultOf('content-cache-mib');
  if (!Number.isFinite(given) || given < 0 || given > 1024 * 1024)
    throw new Error(`contentCacheMiB must be a number of MiB from 0 to 1048576, got ${String(given)}`);
  return given;
}

/** The mode with its file paths made absolute; a replay recording given by name stays a name (looked up later). */
function absoluteMode(mode: MockMode, baseDir: string): MockMode {
  if (mode.kind === 'record')
    return {
      ...mode,
      out: resolve(baseDir, mode.out),
      upstreamCa: mode.upstreamCa === undefined ? undefined : resolve(baseDir, mode.upstreamCa),
    };
  if (mode.kind === 'replay' && typeof mode.recording === 'string' && /[\\/]|\.json$/.test(mode.recording)) {
    return { ...mode, recording: resolve(baseDir, mode.recording) };
  }
  return mode;
}

/** `log: true`: each line to stdout (the request log batches its lines instead, see http/stdout-lines.ts). */
export function logToConsole(line: string): void {
  console.log(line);
}
