import type { ChangeSet, TagChange } from '../storage/persistence.js';
import type { NodeRecord, StateData, UserRecord } from '../storage/schema.js';
import { userEntries, type AnyState } from '../storage/state-maps.js';
import { ChangeStamps } from './change-stamps.js';
import { QueueBook } from './change-events/queue-book.js';
import { ChildIndex } from './child-index.js';
import { plainNode, setOf } from './record-values.js';
import { SharedStrings } from './shared-strings.js';
import { TagIndex } from './tag-index.js';
import type { TreeQueries, Undo } from './tree-queries.js';

export type { TreeQueries, Undo } from './tree-queries.js';

/**
 * Every node and user in memory, with indexes kept live as change sets are applied (never rebuilt
 * per request): children by parent and by name (ChildIndex), recycled nodes by owner, tags, blob
 * reference counts, and the bytes under every container. Applying a change costs
 * the size of the change (times the depth, for nodes whose byte count moves a container's sum).
 */
export class Tree implements TreeQueries {
  readonly #nodes = new Map<string, NodeRecord>();
  readonly #users = new Map<string, UserRecord>();
  readonly #children = new ChildIndex((id) => this.#nodes.get(id));
  readonly #recycled = new Map<string, Set<string>>();
  readonly #blobRefs = new Map<string, number>();
  /** Container id -> bytes of the files below it, reached through nodes that are not recycled. */
  readonly #sums = new Map<string, number>();
  readonly tags = new TagIndex();
  /** The notification queues: state like the nodes, changed by the same change sets. */
  readonly queues = new QueueBook();
  readonly #stamps = new ChangeStamps();
  /**
   * Tag lists this tree made (by a tag change) that nothing but the node's current records holds: a
   * tag added to a node whose list is here is appended in place, so adding a tag costs the same however
   * many the node has. A list leaves the set when a reader that needs it unchanged takes it: a snapshot
   * (all lists at once) or an undo that keeps the node's record; the next add then copies it once.
   */
  #appendable = new WeakSet<string[]>();
  readonly #strings = new SharedStrings();

  constructor(state?: AnyState) {
    if (state) this.load(state);
  }

  /**
   * Replaces everything with `state` (at open, read from disk as Maps; or when a switch swaps a new
   * state in, as a document).
   */
  load(state: AnyState): void {
    for (const index of [this.#nodes, this.#users, this.#children, this.#recycled, this.#blobRefs, this.#sums]) {
      index.clear();
    }
    this.tags.clear();
    this.#strings.clear();
    this.queues.load(state.queues);
    this.#stamps.loaded();
    for (const [login, user] of userEntries(state)) this.#users.set(this.#strings.share(login), user);
    // The nodes are fresh (parsed or built for this load): no old record to unindex, no copy to make.
    // Keyed by the record's own id string: the document's key is an equal copy that can then go.
    const take = (record: NodeRecord): void => {
      const node = this.#shareStrings(plainNode(record));
      this.#nodes.set(node.id, node);
      this.#index(node);
    };
    if (state.nodes instanceof Map) state.nodes.forEach(take);
    else for (const id of Object.keys(state.nodes)) take(state.nodes[id]!);
  }

  /** The state as a plain document (null-prototype objects), for a snapshot. */
  toState(): StateData {
    this.#appendable = new WeakSet();
    const users: Record<string, UserRecord> = Object.create(null) as Record<string, UserRecord>;
    const nodes: Record<string, NodeRecord> = Object.create(null) as Record<string, NodeRecord>;
    for (const [login, user] of this.#users) users[login] = user;
    for (const [id, node] of this.#nodes) nodes[id] = node;
    const queues = this.queues.toState();
    return queues ? { schema: 1, users, nodes, queues } : { schema: 1, users, nodes };
  }

  /**
   * Applies a change set to the nodes and every index; returns what undoes it (the records it
   * replaced or removed, the ids and logins it added), for a group whose fsync fails.
   */
  apply(change: ChangeSet): Undo {
    const undo: Undo = { nodes: [], removed: [], users: [], droppedUsers: [] };
    const keep = (before: NodeRecord): void => {
      undo.nodes.push(before);
      this.#appendable.delete(before.tags);
    };
    for (const { login } of change.users ?? []) {
      const before = this.#users.get(login);
      if (before) undo.users.push({ login, user: before });
      else undo.droppedUsers.push(login);
    }
    for (const node of change.nodes ?? []) {
      const before = this.#nodes.get(node.id);
      if (before) keep(before);
      else undo.removed.push(node.id);
    }
    for (const tagChange of change.tags ?? []) {
      const before = this.#nodes.get(tagChange.id);
      if (!before) continue;
      if ('add' in tagChange) {
        if (!this.tags.has(before.owner, tagChange.add, before.id))
          (undo.tags ??= []).push({ id: before.id, remove: tagChange.add });
      } else if (this.tags.has(before.owner, tagChange.remove, before.id)) {
        keep(before);
      }
    }
    for (const id of change.removed ?? []) {
      const before = this.#nodes.get(id);
      if (before) keep(before);
    }
    if (change.queues) undo.queues = this.queues.undoOf(change.queues);
    this.#applyChange(change);
    return undo;
  }

  /** Undoes an applied change (changes undone newest first give the state before them back). */
  revert(undo: Undo): void {
    this.#applyChange(undo);
    for (const login of undo.droppedUsers) this.#users.delete(login);
  }

  #applyChange(change: ChangeSet): void {
    const stamp = this.#stamps.next();
    if (change.queues) this.queues.apply(change.queues);
    for (const { login, user } of change.users ?? []) this.#users.set(this.#strings.share(login), user);
    for (const node of change.nodes ?? []) {
      stamp(this.#nodes.get(node.id)?.parentId);
      this.#put(this.#shareStrings(node));
      stamp(node.id);
      stamp(node.parentId);
    }
    for (const tagChange of change.tags ?? []) {
      this.#applyTag(tagChange);
      stamp(tagChange.id);
    }
    for (const id of change.removed ?? []) {
      const old = this.#nodes.get(id);
      if (!old) continue;
      stamp(old.parentId);
      this.#unindex(old);
      this.#nodes.delete(id);
      this.#stamps.forget(id);
    }
    for (const id of change.removed ?? []) {
      if (this.#nodes.has(id)) continue;
      this.#sums.delete(id);
      this.#children.forget(id);
    }
  }

  /** A newer access time for a node, in memory only (see CloudStore.touchAccessed); no index depends on it. */
  touch(id: string, accessed: number): void {
    const node = this.#nodes.get(id);
    if (node && node.accessed < accessed) this.#nodes.set(id, { ...node, accessed });
  }

  /** A counter that grows with every applied change. */
  get generation(): number {
    return this.#stamps.generation;
  }

  /** Starts keeping stamps for `changedSince` (an operation prepared in slices); call the result when done. */
  watch(): () => void {
    return this.#stamps.watch();
  }

  /** True when `id` or its list of children changed after `generation` (while watched). */
  changedSince(id: string, generation: number): boolean {
    return this.#stamps.changedSince(id, generation);
  }

  get size(): number {
    return this.#nodes.size;
  }

  users(): string[] {
    return [...this.#users.keys()];
  }

  user(login: string): UserRecord | undefined {
    return this.#users.get(login);
  }

  node(id: string): NodeRecord | undefined {
    return this.#nodes.get(id);
  }

  /** Live: not recycled and no recycled ancestor. */
  isLive(node: NodeRecord): boolean {
    for (let n: NodeRecord | undefined = node; n; n = n.parentId ? this.#nodes.get(n.parentId) : undefined) {
      if (n.recycled !== null) return false;
    }
    return true;
  }

  /** Live children, containers first, then files, each by name ignoring case (inferred order). */
  children(containerId: string): NodeRecord[] {
    return this.#children.children(containerId);
  }

  childNamed(containerId: string, name: string): NodeRecord | undefined {
    return this.#children.childNamed(containerId, name);
  }

  /** Every child id (live or recycled) of a container. */
  childIds(containerId: string): Iterable<string> {
    return this.#children.childIds(containerId);
  }

  /** Every live node under (and including) `id`, parents before children; stops past `max` nodes. */
  subtree(id: string, max = Number.POSITIVE_INFINITY): NodeRecord[] {
    return this.#children.subtree(id, max);
  }

  subtreeBytes(id: string): number {
    const node = this.#nodes.get(id);
    if (!node) return 0;
    return node.kind === 'file' ? node.bytes : (this.#sums.get(id) ?? 0);
  }

  /** True when `candidate` is `ancestorId` or lies below it. */
  isWithin(candidate: string, ancestorId: string): boolean {
    for (let n = this.#nodes.get(candidate); n; n = n.parentId ? this.#nodes.get(n.parentId) : undefined) {
      if (n.id === ancestorId) return true;
    }
    return false;
  }

  /** Names from below the root down to `id` (the root itself has none). */
  pathNames(id: string): string[] {
    const names: string[] = [];
    for (let n = this.#nodes.get(id); n && n.parentId; n = this.#nodes.get(n.parentId)) names.push(n.name);
    return names.reverse();
  }

  /** Every node id of an owner's tree (live or recycled), walked down from the root (no index by owner to keep). */
  idsOf(owner: string): string[] {
    const rootId = this.#users.get(owner)?.rootId;
    return rootId === undefined || !this.#nodes.has(rootId) ? [] : this.#children.idsUnder(rootId);
  }

  /** The owner's nodes whose own recycled mark is set (the tops of deleted subtrees). */
  recycledOf(owner: string): NodeRecord[] {
    return [...(this.#recycled.get(owner) ?? [])].map((id) => this.#nodes.get(id)!);
  }

  /** Every blob id some node (live or recycled) still points at. */
  referencedBlobs(): Set<string> {
    return new Set(this.#blobRefs.keys());
  }

  isBlobReferenced(blobId: string): boolean {
    return this.#blobRefs.has(blobId);
  }

  /**
   * A tag added (appended in place to a list of #appendable, else to a copy made once) or removed (a
   * new list). Adding a tag the node has, or removing one it lacks, changes nothing.
   */
  #applyTag(change: TagChange): void {
    const node = this.#nodes.get(change.id);
    if (!node) return;
    let tags: string[];
    if ('add' in change) {
      if (this.tags.has(node.owner, change.add, node.id)) return;
      tags = this.#appendable.has(node.tags) ? node.tags : this.#madeHere([...node.tags]);
      tags.push(change.add);
      this.tags.addTag(node.owner, change.add, node.id);
    } else {
      if (!this.tags.has(node.owner, change.remove, node.id)) return;
      tags = this.#madeHere(node.tags.filter((t) => t !== change.remove));
      this.tags.removeTag(node.owner, change.remove, node.id);
    }
    this.#nodes.set(node.id, { ...node, tags });
  }

  /**
   * The record with the strings it repeats held once: its owner and MIME type shared, its parentId
   * the parent's own id string (a parent loaded after its child keeps the copy). The values stay the
   * same, so the record is still as committed for every reader; only the copies go.
   */
  #shareStrings(node: NodeRecord): NodeRecord {
    node.owner = this.#strings.share(node.owner);
    if (node.mimeType !== '') node.mimeType = this.#strings.share(node.mimeType);
    const parent = node.parentId === null ? undefined : this.#nodes.get(node.parentId);
    if (parent) node.parentId = parent.id;
    return node;
  }

  #madeHere(tags: string[]): string[] {
    this.#appendable.add(tags);
    return tags;
  }

  #put(node: NodeRecord): void {
    const old = this.#nodes.get(node.id);
    if (old) {
      this.#unindex(old, false);
      this.tags.replace(old, node);
    }
    this.#nodes.set(node.id, node);
    this.#index(node, !old);
  }

  #index(n: NodeRecord, withTags = true): void {
    this.#children.add(n);
    if (n.recycled !== null) setOf(this.#recycled, n.owner).add(n.id);
    if (n.blobId) this.#blobRefs.set(n.blobId, (this.#blobRefs.get(n.blobId) ?? 0) + 1);
    if (withTags) this.tags.add(n);
    if (n.parentId !== null) this.#propagate(n.parentId, this.#contribution(n));
  }

  #unindex(n: NodeRecord, withTags = true): void {
    this.#children.remove(n);
    if (n.parentId !== null) this.#propagate(n.parentId, -this.#contribution(n));
    this.#recycled.get(n.owner)?.delete(n.id);
    if (n.blobId) {
      const refs = (this.#blobRefs.get(n.blobId) ?? 1) - 1;
      if (refs > 0) this.#blobRefs.set(n.blobId, refs);
      else this.#blobRefs.delete(n.blobId);
    }
    if (withTags) this.tags.remove(n);
  }

  /** What a node adds to its parent's byte sum. */
  #contribution(n: NodeRecord): number {
    if (n.recycled !== null) return 0;
    return n.kind === 'file' ? n.bytes : (this.#sums.get(n.id) ?? 0);
  }

  /** Adds `delta` to the sums of `parentId` and its ancestors, up to the first recycled one. */
  #propagate(parentId: string, delta: number): void {
    if (delta === 0) return;
    for (let id: string | null = parentId; id !== null; ) {
      this.#sums.set(id, (this.#sums.get(id) ?? 0) + delta);
      const n = this.#nodes.get(id);
      if (!n || n.recycled !== null) return;
      id = n.parentId;
    }
  }
}
