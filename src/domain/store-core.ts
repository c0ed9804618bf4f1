import type { BlobStore } from '../storage/blob-store.js';
import { StorageError, type ChangeSet, type StatePersistence } from '../storage/persistence.js';
import type { NodeKind, NodeRecord, StateData } from '../storage/schema.js';
import { duplicateName, notFound } from './errors.js';
import { LockTable, type WriteIntent } from './locks.js';
import { Tree } from './tree.js';

/** What a request brings to a write, checked by the domain at commit against the state then. */
export interface WriteContext {
  /** Lock tokens the request submitted (WebDAV If header); REST submits none, so any lock stops it. */
  tokens?: ReadonlySet<string>;
  /** Conditions of the request (If, If-Match), re-evaluated at commit; throws to refuse. */
  precondition?: () => void;
}

/** What a transaction's validation produced: the change to commit, the answer, and what follows in memory. */
export interface Plan<T> {
  change?: ChangeSet;
  result: T;
  /** Runs after the change is applied, still inside the transaction (a lock granted with the file it created). */
  after?: () => void;
}

/**
 * The store's insides, shared by the domain's modules and by nothing else: the tree and its indexes,
 * the locks, the blobs, and the one path every change takes — validate against the current state,
 * commit the change set, apply it to memory — one transaction at a time, so a validation always
 * sees every change committed before it.
 */
export class StoreCore {
  readonly tree: Tree;
  readonly locks: LockTable;
  readonly blobs: BlobStore;
  readonly now: () => number;
  readonly persistence: StatePersistence;
  #tail: Promise<unknown> = Promise.resolve();
  readonly #fileTails = new Map<string, Promise<unknown>>();

  constructor(state: StateData, persistence: StatePersistence, blobs: BlobStore, now: () => number) {
    this.tree = new Tree(state);
    this.locks = new LockTable(this.tree);
    this.blobs = blobs;
    this.now = now;
    this.persistence = persistence;
  }

  /** Runs `task` after every transaction queued before it, alone. */
  serial<T>(task: () => Promise<T> | T): Promise<T> {
    const run = this.#tail.then(task);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /** Validate (synchronously, against the state now) -> commit -> apply -> answer. */
  transact<T>(build: () => Plan<T>): Promise<T> {
    return this.serial(async () => {
      const plan = build();
      if (plan.change) {
        await this.commit(plan.change);
        this.tree.apply(plan.change);
      }
      plan.after?.();
      return plan.result;
    });
  }

  async commit(change: ChangeSet): Promise<void> {
    try {
      await this.persistence.commit(change);
    } catch (err) {
      throw asStorageError(err);
    }
  }

  /** Content writes to one file run one after another, so a block write never works on a stale base. */
  perFile<T>(fileId: string, task: () => Promise<T>): Promise<T> {
    const run = (this.#fileTails.get(fileId) ?? Promise.resolve()).then(task);
    const tail = run.catch(() => undefined);
    this.#fileTails.set(fileId, tail);
    void tail.then(() => {
      if (this.#fileTails.get(fileId) === tail) this.#fileTails.delete(fileId);
    });
    return run;
  }

  /** A live node of `user`, optionally of one kind; anything else (another user's too) is not found. */
  liveNode(user: string, id: string, kind?: NodeKind): NodeRecord {
    const node = this.tree.node(id);
    if (!node || node.owner !== user || !this.tree.isLive(node) || (kind && node.kind !== kind)) {
      throw notFound(kind ?? 'object');
    }
    return node;
  }

  /** The request's own conditions, then the locks its write touches. Call after the owner checks. */
  checkWrite(intent: WriteIntent, ctx: WriteContext | undefined): void {
    ctx?.precondition?.();
    this.locks.assertCanWrite(intent, ctx?.tokens);
  }

  assertFree(parentId: string, name: string, except?: string): void {
    const clash = this.tree.childNamed(parentId, name);
    if (clash && clash.id !== except) throw duplicateName(name);
  }

  /** The parent's record marked changed (its listing differs), for the change set. */
  touched(parentId: string): NodeRecord[] {
    const parent = this.tree.node(parentId);
    return parent ? [{ ...parent, modified: this.now() }] : [];
  }

  /** Deletes blobs no node (live or recycled) points at any more; copies share blobs. */
  async dropUnreferenced(blobIds: Iterable<string | null | undefined>): Promise<void> {
    for (const id of new Set(blobIds)) if (id && !this.tree.isBlobReferenced(id)) await this.blobs.delete(id);
  }

  /** Swaps a whole new state in: durable first, then memory; locks do not survive it. */
  async replace(state: StateData): Promise<void> {
    try {
      await this.persistence.replace(state);
    } catch (err) {
      throw asStorageError(err);
    }
    this.tree.load(state);
    this.locks.clear();
  }
}

function asStorageError(err: unknown): StorageError {
  if (err instanceof StorageError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  return new StorageError(
    code === 'ENOSPC' || code === 'EDQUOT' ? 'full' : 'io',
    (err as Error).message ?? String(err),
    { cause: err },
  );
}
