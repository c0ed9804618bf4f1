import { randomUUID } from 'node:crypto';
import { systemClock } from '../clock/mock-clock.js';
import { DomainError, conflict, type LockedBy } from './errors.js';
import type { TreeQueries } from './tree.js';

export type LockScope = 'exclusive' | 'shared';
export type LockDepth = '0' | 'infinity';

/** A WebDAV write lock on one node (and, with depth infinity, everything below it). */
export interface ActiveLock {
  token: string;
  rootId: string;
  owner: string; // the user whose tree holds the node
  scope: LockScope;
  depth: LockDepth;
  /** The client's <owner> element content, as XML, or ''. */
  ownerXml: string;
  /** Seconds, or null for Infinite. */
  timeout: number | null;
  /** ms since the epoch; Infinity for Infinite. */
  expires: number;
}

export type LockRequest = Omit<ActiveLock, 'token' | 'expires'>;

/**
 * What a write is about to change, for the lock check:
 * - content: the node's content or properties change;
 * - members: containers that gain or lose a member;
 * - remove: a node (with its subtree) leaves its place (delete, move, overwrite); its parent's
 *   membership changes too.
 */
export interface WriteIntent {
  content?: string;
  members?: string[];
  remove?: string;
}

export const locked = (message: string, by?: LockedBy): DomainError => new DomainError('locked', message, by);

/** Inferred bound: far more than any client holds; a full table answers 507 (RFC 4918 9.10.6 names it). */
export const MAX_LOCKS = 50_000;

/** What routes may ask of the locks; taking a lock is a store operation (it may create a file). */
export interface LockQueries {
  covering(nodeId: string): ActiveLock[];
  coveringNewMember(parentId: string): ActiveLock[];
  get(token: string): ActiveLock | undefined;
  refresh(token: string, timeout: number | null): ActiveLock;
  release(token: string, nodeId: string): void;
}

/**
 * WebDAV locks, kept in memory (a restart drops them, as a lock is a lease), indexed by token and by
 * the node they are rooted at, so a check walks the node's ancestors, not the table. Expired locks
 * and locks whose node is gone are dropped as they are met, and swept when the table fills up.
 */
export class LockTable implements LockQueries {
  readonly #tree: TreeQueries;
  readonly #byToken = new Map<string, ActiveLock>();
  readonly #byRoot = new Map<string, Set<ActiveLock>>();
  /** Node id -> the locks rooted strictly below it, so finding them costs what is found, not the table. */
  readonly #under = new Map<string, Set<ActiveLock>>();
  /** Lock -> the ancestors it was filed under in #under (its node's, when it was granted). */
  readonly #filedUnder = new Map<ActiveLock, string[]>();
  readonly #clock: () => number;

  constructor(tree: TreeQueries, clock: () => number = systemClock.now) {
    this.#tree = tree;
    this.#clock = clock;
  }

  get size(): number {
    return this.#byToken.size;
  }

  /** Locks on the node itself or inherited from an ancestor's depth-infinity lock. */
  covering(nodeId: string): ActiveLock[] {
    const out: ActiveLock[] = [];
    if (this.#byToken.size === 0) return out;
    const now = this.#clock();
    for (let n = this.#tree.node(nodeId); n; n = n.parentId ? this.#tree.node(n.parentId) : undefined) {
      if (n.recycled !== null) return [];
      for (const l of this.#byRoot.get(n.id) ?? []) {
        if (l.expires <= now) this.#drop(l);
        else if (n.id === nodeId || l.depth === 'infinity') out.push(l);
      }
    }
    return out;
  }

  /** Locks that cover a URL not mapped yet, in container `parentId`: its depth-infinity locks. */
  coveringNewMember(parentId: string): ActiveLock[] {
    return this.covering(parentId).filter((l) => l.depth === 'infinity');
  }

  /**
   * Locks rooted strictly below the node. A lock stays filed under the ancestors its node had when it
   * was granted: a move releases the locks below what moves (RFC 4918 7.7), so those stay true.
   */
  below(nodeId: string): ActiveLock[] {
    const out: ActiveLock[] = [];
    for (const l of [...(this.#under.get(nodeId) ?? [])]) {
      if (this.#alive(l) && this.#tree.isWithin(l.rootId, nodeId)) out.push(l);
    }
    return out;
  }

  get(token: string): ActiveLock | undefined {
    const lock = this.#byToken.get(token);
    return lock && this.#alive(lock) ? lock : undefined;
  }

  /** Throws `locked` when the new lock conflicts with one held (RFC 4918 6.1). */
  assertCanLock(rootId: string | undefined, parentId: string, lock: Pick<LockRequest, 'scope' | 'depth'>): void {
    if (this.#byToken.size >= MAX_LOCKS) this.#sweep();
    if (this.#byToken.size >= MAX_LOCKS) throw new DomainError('full', `the lock table holds ${MAX_LOCKS} locks`);
    const rivals = rootId
      ? [...this.covering(rootId), ...(lock.depth === 'infinity' ? this.below(rootId) : [])]
      : this.coveringNewMember(parentId);
    const rival = rivals.find((r) => r.scope === 'exclusive' || lock.scope === 'exclusive');
    if (rival) throw locked('the resource is already locked', { rootId: rival.rootId, reason: 'conflicting-lock' });
  }

  /** Adds a lock the caller has checked with assertCanLock (which also made room). */
  add(lock: LockRequest): ActiveLock {
    const created: ActiveLock = {
      ...lock,
      token: `opaquelocktoken:${randomUUID()}`,
      expires: this.#expiry(lock.timeout),
    };
    this.#insert(created);
    return created;
  }

  #insert(lock: ActiveLock): void {
    this.#byToken.set(lock.token, lock);
    let set = this.#byRoot.get(lock.rootId);
    if (!set) this.#byRoot.set(lock.rootId, (set = new Set()));
    set.add(lock);
    const ancestors: string[] = [];
    const root = this.#tree.node(lock.rootId);
    for (let id = root?.parentId ?? null; id !== null; id = this.#tree.node(id)?.parentId ?? null) {
      ancestors.push(id);
      let under = this.#under.get(id);
      if (!under) this.#under.set(id, (under = new Set()));
      under.add(lock);
    }
    this.#filedUnder.set(lock, ancestors);
  }

  refresh(token: string, timeout: number | null): ActiveLock {
    const lock = this.get(token);
    if (!lock) throw conflict('no such lock');
    lock.timeout = timeout;
    lock.expires = this.#expiry(timeout);
    return lock;
  }

  /** Removes a lock; it must cover the node it is released through (RFC 4918 9.11). */
  release(token: string, nodeId: string): void {
    const lock = this.get(token);
    if (!lock || !this.covering(nodeId).includes(lock))
      throw conflict('the lock token does not match a lock on this resource');
    this.#drop(lock);
  }

  /** A moved node does not take its locks along (RFC 4918 7.7); returns the locks dropped. */
  releaseWithin(nodeId: string): ActiveLock[] {
    const dropped = [...this.below(nodeId), ...(this.#byRoot.get(nodeId) ?? [])];
    for (const l of dropped) this.#drop(l);
    return dropped;
  }

  /** Drops a lock (a grant undone with its transaction). */
  remove(lock: ActiveLock): void {
    this.#drop(lock);
  }

  /** Puts back locks dropped by a transaction that was undone. */
  restore(locks: readonly ActiveLock[]): void {
    for (const lock of locks) this.#insert(lock);
  }

  /** Throws `locked` unless every lock the write touches has one of its tokens submitted. */
  assertCanWrite(intent: WriteIntent, tokens: ReadonlySet<string> = new Set()): void {
    if (this.#byToken.size === 0) return;
    const groups: ActiveLock[][] = [];
    if (intent.content) groups.push(this.covering(intent.content));
    for (const id of intent.members ?? []) groups.push(this.covering(id));
    if (intent.remove) {
      groups.push(this.covering(intent.remove));
      for (const l of this.below(intent.remove)) groups.push([l]);
      const parent = this.#tree.node(intent.remove)?.parentId;
      if (parent) groups.push(this.covering(parent));
    }
    for (const group of groups) {
      if (group.length > 0 && !group.some((l) => tokens.has(l.token))) {
        throw locked('the resource is locked and no matching lock token was submitted', {
          rootId: group[0]!.rootId,
          reason: 'token-not-submitted',
        });
      }
    }
  }

  clear(): void {
    this.#byToken.clear();
    this.#byRoot.clear();
    this.#under.clear();
    this.#filedUnder.clear();
  }

  #alive(lock: ActiveLock): boolean {
    const node = this.#tree.node(lock.rootId);
    if (lock.expires > this.#clock() && node && this.#tree.isLive(node)) return true;
    this.#drop(lock);
    return false;
  }

  #drop(lock: ActiveLock): void {
    this.#byToken.delete(lock.token);
    const set = this.#byRoot.get(lock.rootId);
    set?.delete(lock);
    if (set?.size === 0) this.#byRoot.delete(lock.rootId);
    for (const id of this.#filedUnder.get(lock) ?? []) {
      const under = this.#under.get(id);
      under?.delete(lock);
      if (under?.size === 0) this.#under.delete(id);
    }
    this.#filedUnder.delete(lock);
  }

  #sweep(): void {
    for (const lock of [...this.#byToken.values()]) this.#alive(lock);
  }

  #expiry(timeout: number | null): number {
    return timeout === null ? Number.POSITIVE_INFINITY : this.#clock() + timeout * 1000;
  }
}
