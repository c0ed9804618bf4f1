import type { RequestHandler } from 'express';
import type { ClockSettings, MockClock } from '../clock/mock-clock.js';
import type { GeneratePlan, GenerateSpec } from './generate/generate-spec.js';
import type { Deviation } from '../rest/deviations.js';

/** The shapes of a scenario file; scenarios/scenario.schema.json describes the same fields for editors. */

/** A string must equal the value; true means present, false means absent. */
export type Condition = string | boolean;

/** Which requests a fault rule applies to; every given condition must hold. */
export interface FaultMatch {
  /** A method, a list of methods, or "*" for any. */
  method: string | string[];
  /** A path glob without the query: "*" is one segment (or part of one), "**" any number of segments. */
  path: string;
  /** Header name (any case) to a value that must be equal, true (present) or false (absent). */
  headers?: Record<string, Condition>;
  /** The media type without parameters; "type/*" allowed. */
  contentType?: string;
  /** Query parameter to a value that must be equal, true (present) or false (absent). */
  query?: Record<string, Condition>;
}

/** The answer a fault sends instead of the service's (text/plain; charset=UTF-8 unless headers say otherwise). */
export interface FaultResponse {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  delayMs?: number;
}

/** A rate in bytes per second, or a string with a unit: "256 KiB/s", "1 Mbit/s", "500 kB/s". */
export type ByteRate = number | string;

/** Caps on body bytes per second: `down` the answer, `up` the request body as the service reads it. */
export interface Bandwidth {
  down?: ByteRate;
  up?: ByteRate;
}

/** The answer written in chunks of `bytes` (± seeded `jitterBytes`), `delayMs` apart. */
export interface Slice {
  bytes: number;
  jitterBytes?: number;
  delayMs: number;
  /** Seed of the jitter (default 1). */
  seed?: number;
}

/** After `afterBytes` body bytes (0: nothing at all), silence; after `ms` the connection closes or resets, without `ms` it stays until the client gives up. */
export interface Hang {
  afterBytes?: number;
  /** "response" (default): stop sending the answer; "request": stop reading the upload. */
  of?: 'response' | 'request';
  ms?: number;
  /** How the connection ends after `ms` (default "close"). */
  then?: 'close' | 'reset';
}

/** The connection closes `ms` after the last byte of the answer (sent with Connection: close). */
export interface SlowClose {
  ms: number;
}

/**
 * Reads `afterBytes` of the request body, then stops reading (the client's writes block); `ms` later
 * (default at once) the rule's `respond` answers, or its `connection` closes or resets; with neither, nothing.
 */
export interface StallUpload {
  afterBytes: number;
  ms?: number;
}

/** Conditions of the network for every request to the service, like `latency`; a rule's own replace them. */
export interface NetworkConditions {
  bandwidth?: Bandwidth;
  slice?: Slice;
  slowClose?: SlowClose;
}

/** One fault: a match, optional counters, and one action (respond, connection, truncateAfterBytes, cors, delayMs or a network condition). */
export interface FaultRule {
  /** Shown in the request journal; default "faults[i]". */
  name?: string;
  match: FaultMatch;
  /** Apply to the first N eligible matches only. */
  times?: number;
  /** Let the first N matches through. */
  after?: number;
  /** Chance (0..1) of applying to an eligible match; needs `seed`. */
  probability?: number;
  /** Seed of the probability draws: the same seed gives the same failures. */
  seed?: number;
  respond?: FaultResponse;
  /** "close": send the whole response, then close the socket. "reset": destroy it with no response. */
  connection?: 'close' | 'reset';
  /** Send the headers and the first N body bytes of the real response, then close. */
  truncateAfterBytes?: number;
  /** "drop": the answer goes out without its CORS headers (Access-Control-*), so a page sees a network error. */
  cors?: 'drop';
  /** Delay before the action (alone: delay the real response). */
  delayMs?: number;
  /** A delay drawn for each request the rule applies to (uniform or log-normal), instead of a fixed delayMs. */
  latency?: Latency;
  bandwidth?: Bandwidth;
  slice?: Slice;
  hang?: Hang;
  slowClose?: SlowClose;
  stallUpload?: StallUpload;
  /**
   * An ambiguous commit: the service handles the request (its change is committed), then instead of its
   * success answer the connection is reset ("reset"), closed without a byte ("close"), or this answer goes
   * out. A request the service refuses (nothing committed) gets the service's own answer.
   */
  afterCommit?: 'reset' | 'close' | FaultResponse;
}

/**
 * When a scenario's change happens: once the service has handled the `nth` request (default 1) that
 * `match` matches, before that request's answer goes out; or `delayMs` after the scenario starts
 * (a start, a switch to it, a reset).
 */
export type ChangeTrigger = { match: FaultMatch; nth?: number } | { delayMs: number };

/** What every change may name: the user whose tree it edits (default: the mock's first login), and its trigger. */
export interface ChangeCommon {
  user?: string;
  /** Required in a scenario's `changes`; a change sent at run time applies at once and takes none. */
  trigger?: ChangeTrigger;
}

/** A new file at a path (its folder must exist), with `text` or `base64` content (default empty). */
export interface CreateChange extends ChangeCommon {
  create: string;
  text?: string;
  base64?: string;
  mimeType?: string;
}
export interface CreateFolderChange extends ChangeCommon {
  createFolder: string;
}
/** New content for an existing file (a new ETag and version). */
export interface OverwriteChange extends ChangeCommon {
  overwrite: string;
  text?: string;
  base64?: string;
}
/** A new name in the same folder. */
export interface RenameChange extends ChangeCommon {
  rename: string;
  to: string;
}
/** Into another folder (a path), keeping the name. */
export interface MoveChange extends ChangeCommon {
  move: string;
  to: string;
}
/** To the recycle bin, as a client's DELETE. */
export interface DeleteChange extends ChangeCommon {
  delete: string;
}
export interface MetadataChange extends ChangeCommon {
  metadata: string;
  set?: Record<string, string>;
  remove?: string[];
}
export interface TagsChange extends ChangeCommon {
  tags: string;
  add?: string[];
  remove?: string[];
}
/** The storage allocated to the user's account, in bytes: shown by /v2/account and WebDAV's quota, enforced on writes. */
export interface QuotaChange extends ChangeCommon {
  quota: number;
}

/** One change the second device makes to a user's tree: its kind is the field that names its path. */
export type DeviceChange =
  | CreateChange
  | CreateFolderChange
  | OverwriteChange
  | RenameChange
  | MoveChange
  | DeleteChange
  | MetadataChange
  | TagsChange
  | QuotaChange;

export const CHANGE_KINDS = [
  'create',
  'createFolder',
  'overwrite',
  'rename',
  'move',
  'delete',
  'metadata',
  'tags',
  'quota',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** Changes the random editor makes when the scenario gives no `limit`. */
export const DEFAULT_RANDOM_LIMIT = 10_000;

/** The kinds the random editor picks from (all but quota). */
export type RandomKind = Exclude<ChangeKind, 'quota'>;

/**
 * A second device that edits at random, but repeatably: one change every `everyMs`, its kind from
 * `kinds`, its target among the objects under the folder `under`, all drawn from `seed`; at most
 * `limit` changes (default DEFAULT_RANDOM_LIMIT): a timer that fires forever would grow the state forever.
 * The schema bounds everyMs (10 ms to a day) and limit (at most 100,000).
 */
export interface RandomEditor {
  user?: string;
  everyMs: number;
  kinds?: RandomKind[];
  under?: string;
  seed?: number;
  limit?: number;
}

/** A container (`container`, `children`) or a file (`file` and at most one of text, base64, fixture). */
export interface SeedNode {
  container?: string;
  file?: string;
  children?: SeedNode[];
  text?: string;
  base64?: string;
  fixture?: string;
  mimeType?: string;
  public?: boolean;
  tags?: string[];
  metadata?: Record<string, string>;
}

export type SeedTree = 'demo' | SeedNode[];

/** The state a scenario starts from: extra users, and every user's tree (or one tree per user). */
export interface ScenarioSeed {
  users?: Record<string, string>;
  tree?: SeedTree;
  trees?: Record<string, SeedTree>;
  /** A generated tree for every user `trees` does not name, in place of `tree` (generate/generate-spec.ts). */
  generate?: GenerateSpec;
}

/** Added before every service request: minMs, or a seeded uniform delay between minMs and maxMs. */
export interface UniformLatency {
  minMs: number;
  maxMs?: number;
  seed?: number;
}

/**
 * A seeded log-normal delay given by its median and 99th percentile (durations: "80ms", "1.5s", or ms):
 * most requests near the median, a long tail, as real networks have. Draws past `maxMs` (default 10
 * minutes) are cut to it.
 */
export interface LogNormalLatency {
  median: string | number;
  p99: string | number;
  maxMs?: number;
  seed?: number;
}

/** A delay drawn for each request: uniform or log-normal, seeded (the same seed, the same delays). */
export type Latency = UniformLatency | LogNormalLatency;

/** A scenario as written in a file or passed inline. */
export interface ScenarioDefinition {
  $schema?: string;
  name?: string;
  description?: string;
  extends?: string;
  /** The mock's clock while this scenario is active: skewed (`offset`) or stopped (`frozen`). */
  clock?: ClockSettings;
  latency?: Latency;
  network?: NetworkConditions;
  recording?: string;
  seed?: ScenarioSeed;
  faults?: FaultRule[];
  /** The second device's changes, each with its trigger (src/device/). */
  changes?: DeviceChange[];
  /** A second device that edits at random, repeatably for a seed. */
  randomEditor?: RandomEditor;
  /** Answers a real client expects where the interface document says otherwise (src/rest/deviations.ts). */
  deviations?: Deviation[];
}

/** A seed node with its content read (fixtures and base64 decoded at load time). */
export type ResolvedSeedNode =
  | { kind: 'container'; name: string; children: ResolvedSeedNode[]; tags: string[]; metadata: Record<string, string> }
  | {
      kind: 'file';
      name: string;
      content: Buffer;
      mimeType: string | undefined;
      public: boolean;
      tags: string[];
      metadata: Record<string, string>;
    };

export type ResolvedSeedTree = 'demo' | ResolvedSeedNode[];

export interface ResolvedSeed {
  users: Record<string, string>;
  tree: ResolvedSeedTree | undefined;
  trees: Record<string, ResolvedSeedTree>;
  generate?: GeneratePlan | undefined;
}

/**
 * A scenario with `extends` merged and every file read: what the mock runs. `source`: the file it came from, or
 * "inline". The features' sections (clock, network, changes...) are merged by their own rules (section.ts).
 */
export type ResolvedScenario = Required<Pick<ScenarioDefinition, 'name' | 'description' | 'faults'>> & {
  [K in 'latency' | 'recording']: ScenarioDefinition[K] | undefined;
} & Pick<ScenarioDefinition, 'clock' | 'network' | 'changes' | 'randomEditor' | 'deviations'> & {
    source: string;
    seed: ResolvedSeed | undefined;
  };

/** What the scenarios need of the mock's options (ResolvedOptions has these; options.ts imports this folder, not the reverse). */
export interface ScenarioSettings {
  users: ReadonlyMap<string, string>;
  seed: 'demo' | 'empty';
  /** A generated tree for every user in place of the demo or empty one (a scenario's seed still wins). */
  generate?: GeneratePlan | undefined;
  switchGraceMs: number | undefined;
  log: (line: string) => void;
  /** The mock's clock, which a scenario's `clock` sets on a switch or reset. */
  clock: MockClock;
}

/** Builds the handler that replays a named recording (wired by src/replay/scenario-replay.ts). */
export type ReplayHandlerFactory = (recording: string, scenario: ResolvedScenario) => Promise<RequestHandler>;
