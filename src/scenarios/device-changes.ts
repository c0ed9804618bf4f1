/** The shapes of the second device's changes; scenarios/scenario.schema.json describes the same fields. */

/** Which requests a trigger counts: a fault rule's match (types.ts FaultMatch), spelt here so types.ts can import this file. */
export interface TriggerMatch {
  method: string | string[];
  path: string;
  headers?: Record<string, string | boolean>;
  contentType?: string;
  query?: Record<string, string | boolean>;
}

/**
 * When a scenario's change happens: once the service has handled the `nth` request (default 1) that
 * `match` matches, before that request's answer goes out; or `delayMs` after the scenario starts
 * (a start, a switch to it, a reset).
 */
export type ChangeTrigger = { match: TriggerMatch; nth?: number } | { delayMs: number };

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
