import { applyQueueChanges, type QueueChange, type QueueRecord } from './queue-records.js';
import type { NodeRecord, StateData, UserRecord } from './schema.js';
import { dropNode, putNode, putUser, type AnyState } from './state-maps.js';
import { TagChangeApplier, type TagChange } from './tag-changes.js';

export type { TagChange } from './tag-changes.js';

/**
 * The contract between the domain (which validates a change and builds it) and the durable layer
 * (which makes it survive a crash). The domain commits a ChangeSet and applies it to memory only
 * once `commit` resolved; if `commit` rejects, nothing of the change is durable.
 */

/**
 * One committed transaction as the durable layer sees it: the whole new record of every node it
 * created or changed, the tags it added or removed, the ids it removed for good, the users it added.
 * Applying it to the state before it gives the state after it; applying it twice does no harm.
 */
export interface ChangeSet {
  /** Nodes created or changed, each as its whole new record. */
  nodes?: NodeRecord[];
  /** Tags added to or removed from nodes, in order (applied after `nodes`). */
  tags?: TagChange[];
  /** Ids of nodes removed for good (a purge). */
  removed?: string[];
  /** Users added: login and record (a list, not an object, so any login is plain data). */
  users?: Array<{ login: string; user: UserRecord }>;
  /** Notification queues created, dropped, appended to or read from, in order. */
  queues?: QueueChange[];
}

/** Why a commit failed: `full` is a full disk (507), `io` anything else (500). */
export class StorageError extends Error {
  readonly kind: 'full' | 'io';
  constructor(kind: 'full' | 'io', message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageError';
    this.kind = kind;
  }
}

export interface LoadedState {
  /** From a state file, in Maps (state-maps.ts); in memory, an empty document. */
  state: AnyState;
  /** What loading noticed and the user should hear (a torn last log record dropped, a stale lock taken over). */
  notes: string[];
}

export interface StatePersistence {
  /** Where the state lives, or undefined in memory. */
  readonly file: string | undefined;
  /** The durable state (snapshot plus every whole log record); called once, right after opening. */
  load(): Promise<LoadedState>;
  /**
   * Makes a group of change sets durable together, in order, with one write and one fsync; resolves
   * after that fsync. Rejects with StorageError when it could not, and then nothing of the group is
   * durable. The caller sends the next group only once this one settled.
   */
  commit(group: readonly ChangeSet[]): Promise<void>;
  /** Replaces the whole durable state at once (a reset or a scenario switch); all or nothing. */
  replace(state: StateData): Promise<void>;
  /** Clean stop: writes a snapshot (compaction) and releases the file lock. */
  close(): Promise<void>;
}

/**
 * Applies a change set to a plain state, a document or the Maps read from disk (what loading the log
 * does, and the durable state a snapshot is made of). Users and nodes are keyed by user-given strings:
 * the objects are null-prototype. Records are replaced, never changed in place; a replay passes one
 * `tags` applier for all its records.
 */
export function applyChangeSet(state: AnyState, change: ChangeSet, tags = new TagChangeApplier()): void {
  for (const { login, user } of change.users ?? []) putUser(state, login, user);
  for (const node of change.nodes ?? []) putNode(state, node);
  for (const tagChange of change.tags ?? []) tags.apply(state, tagChange);
  for (const id of change.removed ?? []) dropNode(state, id);
  if (change.queues)
    applyQueueChanges((state.queues ??= Object.create(null) as Record<string, QueueRecord>), change.queues);
}
