import { randomUUID } from 'node:crypto';
import { DomainError, conflict, type LockedBy } from './errors.js';
import type { Tree } from './tree.js';

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

/**
 * WebDAV locks, kept in memory (a restart drops them, as a lock is a lease). Locks are keyed by node
 * id: a lock on an unmapped URL first creates an empty file (RFC 4918 7.3), so every lock has a node.
 * Both views go through assertCanWrite: REST submits no tokens, so any lock stops a REST write.
 */
export class LockTable {
  readonly #tree: Tree;
  readonly #locks = new Map<string, ActiveLock>();
  readonly #clock: () => number;

  constructor(tree: Tree, clock: () => number = () => Date.now()) {
    this.#tree = tree;
    this.#clock = clock;
  }

  /** Locks on the node itself or inherited from an ancestor's depth-infinity lock. */
  covering(nodeId: string): ActiveLock[] {
    return this.#live().filter(
      (l) => l.rootId === nodeId || (l.depth === 'infinity' && this.#tree.isWithin(nodeId, l.rootId)),
    );
  }

  /** Locks that cover a URL not mapped yet, in container `parentId`: its depth-infinity locks. */
  coveringNewMember(parentId: string): ActiveLock[] {
    return this.covering(parentId).filter((l) => l.depth === 'infinity');
  }

  /** Locks rooted strictly below the node. */
  below(nodeId: string): ActiveLock[] {
    return this.#live().filter((l) => l.rootId !== nodeId && this.#tree.isWithin(l.rootId, nodeId));
  }

  get(token: string): ActiveLock | undefined {
    return this.#live().find((l) => l.token === token);
  }

  create(lock: Omit<ActiveLock, 'token' | 'expires'>): ActiveLock {
    const rivals = [...this.covering(lock.rootId), ...(lock.depth === 'infinity' ? this.below(lock.rootId) : [])];
    const rival = rivals.find((r) => r.scope === 'exclusive' || lock.scope === 'exclusive');
    if (rival) throw locked('the resource is already locked', { rootId: rival.rootId, reason: 'conflicting-lock' });
    const created: ActiveLock = { ...lock, token: `opaquelocktoken:${randomUUID()}`, expires: this.#expiry(lock.timeout) };
    this.#locks.set(created.token, created);
    return created;
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
    if (!lock || !this.covering(nodeId).includes(lock)) throw conflict('the lock token does not match a lock on this resource');
    this.#locks.delete(token);
  }

  /** A moved node does not take its locks along (RFC 4918 7.7). */
  releaseWithin(nodeId: string): void {
    for (const l of [...this.below(nodeId), ...this.#live().filter((x) => x.rootId === nodeId)]) this.#locks.delete(l.token);
  }

  /** Throws `locked` unless every lock the write touches has one of its tokens submitted. */
  assertCanWrite(intent: WriteIntent, tokens: ReadonlySet<string> = new Set()): void {
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
        throw locked('the resource is locked and no matching lock token was submitted', { rootId: group[0]!.rootId, reason: 'token-not-submitted' });
      }
    }
  }

  clear(): void {
    this.#locks.clear();
  }

  #expiry(timeout: number | null): number {
    return timeout === null ? Number.POSITIVE_INFINITY : this.#clock() + timeout * 1000;
  }

  /** Drops expired locks and locks whose node is gone, then lists the rest. */
  #live(): ActiveLock[] {
    const now = this.#clock();
    for (const [token, l] of this.#locks) {
      const node = this.#tree.node(l.rootId);
      if (l.expires <= now || !node || !this.#tree.isLive(node)) this.#locks.delete(token);
    }
    return [...this.#locks.values()];
  }
}
