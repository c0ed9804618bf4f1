import type { Clock } from '../clock/mock-clock.js';
import type { BlobStore } from '../storage/blob-store.js';
import { KeyedMutex, Mutex } from '../turns/mutex.js';
import { StorageError, applyChangeSet, type ChangeSet, type StatePersistence } from '../storage/persistence.js';
import type { NodeKind, NodeRecord, StateData } from '../storage/schema.js';
import type { AnyState } from '../storage/state-maps.js';
import { duplicateName, notFound } from './errors.js';
import { LockTable, type WriteIntent } from './locks.js';
import { Tree, type Undo } from './tree.js';

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
  /**
   * Runs after the change is applied, still inside the transaction (a lock granted with the file it
   * created); returns what undoes it, should the transaction's group fail to become durable.
   */
  after?: () => (() => void) | void;
}

/** A transaction applied to memory whose group is not durable yet. */
interface Staged {
  change: ChangeSet | undefined;
  undo: Undo | undefined;
  undoAfter: (() => void) | void;
  resolve: () => void;
  reject: (err: Error) => void;
}

/**
 * The store's insides, shared by the domain's modules and by nothing else: the tree and its indexes,
 * the locks, the blobs, and the one path every change takes.
 *
 * Transactions are validated one at a time, each against the state including every change validated
 * before it, then applied to memory at once and staged; the staged changes go to the durable layer
 * as one group (one write, one fsync: group commit), and each transaction is answered only once its
 * group is durable. If a group fails, it and every transaction staged after it (each validated
 * against it) are undone in memory, newest first, and refused: memory and disk are as before them.
 * Reads may see a staged change during its group's fsync (milliseconds); a writer never hears of it
 * before it is durable.
 */
export class StoreCore {
  readonly tree: Tree;
  readonly locks: LockTable;
  readonly blobs: BlobStore;
  readonly now: () => number;
  readonly persistence: StatePersistence;
  readonly #turn = new Mutex();
  readonly #fileTurns = new KeyedMutex<string>();
  /** Applied, waiting for the next group. */
  #staged: Staged[] = [];
  /** The group being made durable. */
  #writing: Staged[] = [];
  #flushScheduled = false;
  /** Groups that failed so far. */
  #failures = 0;
  /** Resolves when the next group settles (for waiting until nothing is staged). */
  #settled!: Promise<void>;
  #onSettled!: () => void;
  /** Adds to each change as it is staged, against the state before it (the notification queues' events). */
  #derive: ((change: ChangeSet) => ChangeSet) | undefined;

  constructor(state: AnyState, persistence: StatePersistence, blobs: BlobStore, clock: Clock) {
    this.tree = new Tree(state);
    this.locks = new LockTable(this.tree, () => clock.now());
    this.blobs = blobs;
    // Entities keep whole seconds; locks expire to the millisecond.
    this.now = () => Math.floor(clock.now() / 1000);
    this.persistence = persistence;
    this.#renewSettled();
  }

  /** Runs `task` after every task queued before it, alone. */
  serial<T>(task: () => Promise<T> | T): Promise<T> {
    return this.#turn.run(task);
  }

  /**
   * Validate (alone, against the state including staged changes) -> apply to memory and stage ->
   * answer once the group is durable. `build` may be async: it then holds the queue while it runs.
   */
  async transact<T>(build: () => Plan<T> | Promise<Plan<T>>): Promise<T> {
    const { durable, result } = await this.serial(async () => {
      for (;;) {
        const failures = this.#failures;
        const built = build();
        const plan = built instanceof Promise ? await built : built;
        // A group failed while this was built (an async build, or between turns): what it read may
        // have been undone since, so it is built again against the restored state (at most once more:
        // nothing new is staged while this holds the queue).
        if (failures === this.#failures) return { durable: this.#stage(plan), result: plan.result };
      }
    });
    await durable;
    return result;
  }

  /** Lets `derive` extend every change as it is staged, in commit order (one listener: the queues). */
  deriveOnStaging(derive: (change: ChangeSet) => ChangeSet): void {
    this.#derive = derive;
  }

  #stage(plan: Plan<unknown>): Promise<void> {
    const change = plan.change && this.#derive ? this.#derive(plan.change) : plan.change;
    const undo = change ? this.tree.apply(change) : undefined;
    let undoAfter: (() => void) | void;
    try {
      undoAfter = plan.after?.();
    } catch (err) {
      if (undo) this.tree.revert(undo);
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    // Nothing to write and nothing it could depend on in flight: done.
    if (!change && this.#staged.length === 0 && this.#writing.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.#staged.push({ change, undo, undoAfter, resolve, reject });
      if (this.#writing.length === 0 && !this.#flushScheduled) {
        // One turn later, so the transactions validated in this turn share the group.
        this.#flushScheduled = true;
        setImmediate(() => {
          this.#flushScheduled = false;
          this.#flush();
        });
      }
    });
  }

  #flush(): void {
    if (this.#writing.length > 0 || this.#staged.length === 0) return;
    const group = this.#staged.splice(0);
    this.#writing = group;
    const changes = group.flatMap((s) => (s.change ? [s.change] : []));
    const durable = changes.length > 0 ? this.persistence.commit(changes) : Promise.resolve();
    durable.then(
      () => this.#groupDurable(group),
      (err: unknown) => {
        // Everything staged after the group was validated against it: it goes too, newest first.
        const failed = [...group, ...this.#staged.splice(0)];
        this.#writing = [];
        this.#failures += 1;
        for (const s of [...failed].reverse()) {
          s.undoAfter?.();
          if (s.undo) this.tree.revert(s.undo);
        }
        const failure = asStorageError(err);
        for (const s of failed) s.reject(failure);
        this.#groupSettled();
      },
    );
  }

  /** The one place a group of committed changes becomes final: durable on disk, already in memory. */
  #groupDurable(group: Staged[]): void {
    this.#writing = [];
    for (const s of group) s.resolve();
    this.#groupSettled();
  }

  #groupSettled(): void {
    this.#onSettled();
    this.#renewSettled();
    this.#flush();
  }

  #renewSettled(): void {
    this.#settled = new Promise((resolve) => (this.#onSettled = resolve));
  }

  /** Resolves once no staged change is waiting for durability (call inside `serial`, so none is added). */
  async drained(): Promise<void> {
    while (this.#staged.length > 0 || this.#writing.length > 0) await this.#settled;
  }

  /** The durable state as a plain document: the state in memory without the staged changes. */
  durableState(): StateData {
    const state = this.tree.toState();
    for (const s of [...this.#staged].reverse().concat([...this.#writing].reverse())) {
      if (!s.undo) continue;
      applyChangeSet(state, s.undo);
      for (const login of s.undo.droppedUsers) delete state.users[login];
    }
    return state;
  }

  /** Content writes to one file run one after another, so a block write never works on a stale base. */
  perFile<T>(fileId: string, task: () => Promise<T>): Promise<T> {
    return this.#fileTurns.run(fileId, task);
  }

  /** A live node of `user`, optionally of one kind; anything else (another user's too) is not found. */
  liveNode(user: string, id: string, kind?: NodeKind): NodeRecord {
    const node = this.tree.node(id);
    if (!node || node.owner !== user || !this.tree.isLive(node) || (kind && node.kind !== kind)) {
      throw notFound(kind ?? 'object');
    }
    return node;
  }

  /**
   * Owner first, then the request's own conditions, then the locks its write touches. Every node the
   * write names must be a live node of `user`: another user's node is not found, whatever locks it
   * holds, so a 423 can never tell a user that someone else's id exists.
   */
  checkWrite(user: string, intent: WriteIntent, ctx: WriteContext | undefined): void {
    for (const id of intentIds(intent)) this.liveNode(user, id);
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

  /**
   * Deletes blobs no node (live or recycled) points at any more, nor would once the staged changes
   * were undone; copies share blobs.
   */
  async dropUnreferenced(blobIds: Iterable<string | null | undefined>): Promise<void> {
    const staged = new Set<string>();
    for (const s of [...this.#writing, ...this.#staged])
      for (const n of s.undo?.nodes ?? []) if (n.blobId) staged.add(n.blobId);
    for (const id of new Set(blobIds)) {
      if (id && !this.tree.isBlobReferenced(id) && !staged.has(id)) await this.blobs.delete(id);
    }
  }

  /** Swaps a whole new state in: durable first, then memory; locks do not survive it. Call inside `serial`. */
  async replace(state: StateData): Promise<void> {
    await this.drained();
    try {
      await this.persistence.replace(state);
    } catch (err) {
      throw asStorageError(err);
    }
    this.tree.load(state);
    this.locks.clear();
  }
}

function intentIds(intent: WriteIntent): string[] {
  const ids = [...(intent.members ?? [])];
  if (intent.content) ids.push(intent.content);
  if (intent.remove) ids.push(intent.remove);
  return ids;
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
