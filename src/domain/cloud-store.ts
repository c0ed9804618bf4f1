import { systemClock, type Clock } from '../clock/mock-clock.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { StatePersistence } from '../storage/persistence.js';
import type { CacheShelf } from '../storage/store-cache.js';
import type { NodeKind, NodeRecord, StateData } from '../storage/schema.js';
import type { AnyState } from '../storage/state-maps.js';
import { setStorageAllocated, storageAllocated } from './account.js';
import { Annotations } from './annotations.js';
import { NotificationQueues } from './change-events/notification-queues.js';
import { withQueueEvents } from './change-events/queue-events.js';
import { changeDeadProps, type DeadPropChange } from './dead-properties.js';
import { notFound } from './errors.js';
import type { ChildListing } from './child-listing.js';
import { checkCreate, createFile, writeContent, type Content, type FileInfo } from './file-writes.js';
import { Listings } from './listings.js';
import { takeLock, type LockTarget } from './lock-operations.js';
import type { ActiveLock, LockQueries, LockRequest } from './locks.js';
import { newNode } from './node-records.js';
import { RecycleBin } from './recycle-bin.js';
import { StateBuilder } from './state-builder.js';
import { swapState, swapUsers } from './state-swaps.js';
import { StoreCore, type WriteContext } from './store-core.js';
import { copyTree, type CopyOptions } from './tree-operations.js';
import { updateNode, type NodeChanges, type UpdateOptions } from './node-updates.js';
import type { TreeQueries } from './tree.js';

export type { WriteContext } from './store-core.js';

/**
 * The service's rules over the users' trees: one method per operation, typed errors, no HTTP.
 * Every mutation is one transaction: it validates against the current state (owner first, then the
 * request's conditions and locks), commits one change set, applies it to memory and only then resolves.
 * A refused or failed change leaves memory and disk as they were.
 */
export class CloudStore {
  readonly #core: StoreCore;
  readonly recycleBin: RecycleBin;
  readonly annotations: Annotations;
  /** CDMI notification queues; every change appends its events to the queues that take them. */
  readonly notificationQueues: NotificationQueues;
  readonly #listings: Listings;
  readonly #shelves = new Map<string, CacheShelf<unknown>>();

  constructor(state: AnyState, persistence: StatePersistence, blobs: BlobStore, clock: Clock = systemClock) {
    this.#core = new StoreCore(state, persistence, blobs, clock);
    this.recycleBin = new RecycleBin(this.#core);
    this.annotations = new Annotations(this.#core);
    this.notificationQueues = new NotificationQueues(this.#core);
    this.#listings = new Listings(this.#core.tree, blobs.cache.shelf('listing'));
    const core = this.#core;
    core.deriveOnStaging((change) => withQueueEvents(core.tree, change, core.now()));
  }

  /** Read-only questions about the tree (children, paths, subtree sizes). */
  get tree(): TreeQueries {
    return this.#core.tree;
  }

  /** WebDAV locks: lookups, refresh and release (taking one is `lock`). */
  get locks(): LockQueries {
    return this.#core.locks;
  }

  get blobs(): BlobStore {
    return this.#core.blobs;
  }

  /** A shelf of the store's one bounded cache, for what is made from the state (entity texts), one per `kind`. */
  shelf<T>(kind: string): CacheShelf<T> {
    let shelf = this.#shelves.get(kind);
    if (!shelf) this.#shelves.set(kind, (shelf = this.#core.blobs.cache.shelf<unknown>(kind)));
    return shelf as CacheShelf<T>;
  }

  now(): number {
    return this.#core.now();
  }

  /** Where the state lives (undefined in memory). */
  get file(): string | undefined {
    return this.#core.persistence.file;
  }

  /** Gives `user` a root container named "/" unless it has one. */
  async ensureUser(user: string): Promise<NodeRecord> {
    return this.#core.transact(() => {
      const existing = this.#core.tree.user(user);
      if (existing) return { result: this.#core.tree.node(existing.rootId)! };
      const root = newNode(user, 'container', '/', null, this.#core.now());
      return { change: { users: [{ login: user, user: { rootId: root.id } }], nodes: [root] }, result: root };
    });
  }

  root(user: string): NodeRecord {
    const u = this.#core.tree.user(user);
    const root = u && this.#core.tree.node(u.rootId);
    if (!root) throw notFound('user');
    return root;
  }

  /** A live node of `user`, optionally of one kind; anything else is not found. */
  get(user: string, id: string, kind?: NodeKind): NodeRecord {
    return this.#core.liveNode(user, id, kind);
  }

  /**
   * The one listing operation: the live children of a live container of `user` as they are now (later
   * changes show in the next listing), in listing order, read a page at a time (ChildListing). Every
   * listing (/v2, WebDAV, the HTML page, the inspector) renders its pages.
   */
  listing(user: string, containerId: string): ChildListing {
    this.get(user, containerId, 'container');
    return this.#listings.of(containerId);
  }

  /** How many live children a container has, without listing them. */
  childCount(containerId: string): number {
    return this.#listings.count(containerId);
  }

  /** Bytes stored in a file, or in a container's whole subtree. */
  bytesOf(node: NodeRecord): number {
    return node.kind === 'file' ? node.bytes : this.#core.tree.subtreeBytes(node.id);
  }

  /** A live node of `user` and every live node below it, parents first; stops soon past `max` nodes. */
  subtree(user: string, id: string, max: number): NodeRecord[] {
    this.get(user, id);
    return this.#core.tree.subtree(id, max);
  }

  /** Resolves names down from the root (WebDAV addressing); [] is the root. */
  resolvePath(user: string, names: string[]): NodeRecord | undefined {
    let node = this.root(user);
    for (const name of names) {
      if (node.kind !== 'container') return undefined;
      const next = this.#core.tree.childNamed(node.id, name);
      if (!next) return undefined;
      node = next;
    }
    return node;
  }

  async createContainer(user: string, parentId: string, rawName: string, ctx?: WriteContext): Promise<NodeRecord> {
    return this.#core.transact(() => {
      const node = newNode(
        user,
        'container',
        checkCreate(this.#core, user, parentId, rawName, ctx),
        parentId,
        this.#core.now(),
      );
      return { change: { nodes: [node, ...this.#core.touched(parentId)] }, result: node };
    });
  }

  /** Creates a file: the content streams to a blob first, then is checked and committed (file-writes.ts). */
  async createFile(
    user: string,
    parentId: string,
    info: FileInfo,
    content?: Content,
    ctx?: WriteContext,
  ): Promise<NodeRecord> {
    return createFile(this.#core, user, parentId, info, content, ctx);
  }

  /** Replaces the content, or with `offset` writes a block into it; writes to one file run in turn. */
  async writeContent(
    user: string,
    fileId: string,
    content: Content,
    offset?: number,
    ctx?: WriteContext,
  ): Promise<NodeRecord> {
    return writeContent(this.#core, user, fileId, content, offset, ctx);
  }

  /** Rename, move (with Overwrite: a node at the new place recycled in the same transaction), public, MIME type. */
  async update(user: string, id: string, changes: NodeChanges, options: UpdateOptions = {}): Promise<NodeRecord> {
    return updateNode(this.#core, user, id, changes, options);
  }

  /** Deep copy into `targetId` (iterative, prepared in slices, one transaction); copies share blobs. */
  async copy(user: string, id: string, targetId: string, newName?: string, options?: CopyOptions): Promise<NodeRecord> {
    return copyTree(this.#core, user, id, targetId, newName, options);
  }

  /** WebDAV dead properties, set/removed in document order, all together (RFC 4918 9.2). */
  async changeDeadProps(user: string, id: string, changes: DeadPropChange[], ctx?: WriteContext): Promise<NodeRecord> {
    return changeDeadProps(this.#core, user, id, changes, ctx);
  }

  /**
   * Takes a WebDAV lock on a node, or on an unmapped name in a container: then the empty file is
   * created in the same transaction, and only if the lock is granted (RFC 4918 9.10.4).
   */
  async lock(
    user: string,
    target: LockTarget,
    request: Omit<LockRequest, 'rootId' | 'owner'>,
    ctx?: WriteContext,
  ): Promise<{ lock: ActiveLock; created: boolean }> {
    return takeLock(this.#core, user, target, request, ctx);
  }

  /**
   * Marks a read: memory only, not a transaction. An access time is not a change the client asked
   * for, and making reads durable would make every download cost an fsync; it is written with the
   * node's next change or the next snapshot, and a crash may forget it. The record is replaced, not
   * changed in place, so a change set already handed to the durable layer stays as committed.
   */
  touchAccessed(node: NodeRecord): void {
    this.#core.tree.touch(node.id, this.#core.now());
  }

  /** Bytes allocated to the account (a quota set for it, else the default). */
  storageAllocated(user: string): number {
    return storageAllocated(this.#core, user);
  }

  /** Sets the account's quota: reported by the account and WebDAV, enforced on creates and content writes. */
  setStorageAllocated(user: string, bytes: number): Promise<void> {
    return setStorageAllocated(this.#core, user, bytes);
  }

  storedBytes(user: string): number {
    return this.#core.tree.subtreeBytes(this.root(user).id);
  }

  /** The whole durable state as a plain document (what a durable layer compacts into a snapshot). */
  snapshot(): StateData {
    return this.#core.durableState();
  }

  /** A builder for a new state (or new user trees), made aside and swapped in by `replaceState` / `replaceUsers`. */
  builder(): StateBuilder {
    return new StateBuilder(this.#core.blobs, this.#core.now());
  }

  /** Swaps the built state in for the whole state, atomically; the old blobs go after the swap. */
  replaceState(built: StateBuilder): Promise<void> {
    return swapState(this.#core, built);
  }

  /** Replaces the trees of the users the builder holds (ids as built) in one transaction; others keep theirs. */
  replaceUsers(built: StateBuilder): Promise<void> {
    return swapUsers(this.#core, built);
  }

  /** Clean stop: the durable layer writes its snapshot; temp blobs of the memory mode go. */
  async close(): Promise<void> {
    await this.#core.serial(async () => {
      await this.#core.drained();
      await this.#core.persistence.close();
    });
    await this.#core.blobs.close();
  }
}
