import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { BlobStore } from '../storage/blob-store.js';
import type { MetadataDb } from '../storage/metadata-store.js';
import { emptyState, type NodeKind, type NodeRecord, type StateData } from '../storage/schema.js';
import { conflict, duplicateName, invalid, notFound } from './errors.js';
import { LockTable } from './locks.js';
import { checkName } from './names.js';
import { Annotations } from './annotations.js';
import { RecycleBin } from './recycle-bin.js';
import { Tree } from './tree.js';

export interface FileInfo {
  name: string;
  mimeType?: string;
  public?: boolean;
}

export interface NodeChanges {
  name?: string;
  public?: boolean;
  mimeType?: string;
  parentId?: string;
}

export type Content = Readable | Buffer;

const DEFAULT_MIME = 'application/octet-stream';
const unixNow = (): number => Math.floor(Date.now() / 1000);
const newId = (): string => randomBytes(12).toString('base64url');

/**
 * The service's rules over one user's tree: one method per operation, typed errors, no HTTP.
 * Every mutation changes the in-memory document and resolves only once lowdb has written it.
 */
export class CloudStore {
  readonly tree: Tree;
  readonly blobs: BlobStore;
  readonly #db: MetadataDb;
  readonly now: () => number;
  readonly recycleBin: RecycleBin;
  readonly annotations: Annotations;
  /** WebDAV locks (in memory); REST writes check them too. */
  readonly locks: LockTable;

  constructor(db: MetadataDb, blobs: BlobStore, now: () => number = unixNow) {
    this.#db = db;
    this.blobs = blobs;
    this.now = now;
    this.tree = new Tree(() => this.#db.data);
    this.recycleBin = new RecycleBin(this);
    this.annotations = new Annotations(this);
    this.locks = new LockTable(this.tree);
  }

  get state(): StateData {
    return this.#db.data;
  }

  users(): string[] {
    return Object.keys(this.state.users);
  }

  /** Gives `user` a root container named "/" unless it has one. */
  async ensureUser(user: string): Promise<NodeRecord> {
    const existing = this.state.users[user];
    if (existing) return this.state.nodes[existing.rootId]!;
    const root = this.#newNode(user, 'container', '/', null);
    this.state.users[user] = { rootId: root.id };
    await this.persist();
    return root;
  }

  root(user: string): NodeRecord {
    const u = this.state.users[user];
    if (!u) throw notFound('user');
    return this.state.nodes[u.rootId]!;
  }

  /** A live node of `user`, optionally of one kind; anything else is not found. */
  get(user: string, id: string, kind?: NodeKind): NodeRecord {
    const node = this.tree.node(id);
    if (!node || node.owner !== user || !this.tree.isLive(node) || (kind && node.kind !== kind)) {
      throw notFound(kind ?? 'object');
    }
    return node;
  }

  children(user: string, containerId: string): NodeRecord[] {
    this.get(user, containerId, 'container');
    return this.tree.children(containerId);
  }

  /** Resolves container names down from the root (WebDAV addressing); [] is the root. */
  resolvePath(user: string, names: string[]): NodeRecord | undefined {
    let node = this.root(user);
    for (const name of names) {
      if (node.kind !== 'container') return undefined;
      const next = this.tree.childNamed(node.id, name);
      if (!next) return undefined;
      node = next;
    }
    return node;
  }

  async createContainer(user: string, parentId: string, rawName: string): Promise<NodeRecord> {
    const name = checkName(rawName);
    this.#assertFree(user, parentId, name);
    const node = this.#newNode(user, 'container', name, parentId);
    this.touchParent(parentId);
    await this.persist();
    return node;
  }

  /** Creates a file; the content (if any) is streamed to a blob before the metadata names it. */
  async createFile(user: string, parentId: string, info: FileInfo, content?: Content): Promise<NodeRecord> {
    const name = checkName(info.name);
    this.#assertFree(user, parentId, name);
    const blob = await this.blobs.put(content ?? Buffer.alloc(0));
    try {
      this.#assertFree(user, parentId, name); // a concurrent writer may have taken the name meanwhile
    } catch (err) {
      await this.blobs.delete(blob.blobId);
      throw err;
    }
    const node = this.#newNode(user, 'file', name, parentId);
    node.mimeType = info.mimeType?.trim() || DEFAULT_MIME;
    node.public = info.public ?? false;
    node.blobId = blob.blobId;
    node.bytes = blob.size;
    this.touchParent(parentId);
    await this.persist();
    return node;
  }

  /** Replaces the content, or with `offset` writes a block into it (Content-Range). */
  async writeContent(user: string, fileId: string, content: Content, offset?: number): Promise<NodeRecord> {
    const file = this.get(user, fileId, 'file');
    if (offset !== undefined && (offset < 0 || offset > file.bytes)) {
      throw invalid(`block offset ${offset} is beyond the end of the file (${file.bytes} bytes)`);
    }
    const base = file.blobId;
    const blob =
      offset !== undefined && base
        ? await this.blobs.writeAt(base, offset, content)
        : await this.blobs.put(content);
    let current: NodeRecord;
    try {
      current = this.get(user, fileId, 'file'); // may have been deleted while the body streamed
    } catch (err) {
      await this.blobs.delete(blob.blobId);
      throw err;
    }
    // Take the blob being replaced now, not before streaming: a concurrent write may have swapped it.
    const old = current.blobId;
    current.blobId = blob.blobId;
    current.bytes = blob.size;
    current.version += 1;
    current.modified = this.now();
    await this.persist();
    await this.dropBlobsIfUnused([old]);
    return current;
  }

  async update(user: string, id: string, changes: NodeChanges): Promise<NodeRecord> {
    const node = this.get(user, id);
    const name = changes.name !== undefined ? checkName(changes.name) : node.name;
    let parentId = node.parentId;
    if (changes.parentId !== undefined && changes.parentId !== node.parentId) {
      if (node.parentId === null) throw conflict('the root container cannot be moved');
      this.get(user, changes.parentId, 'container');
      if (this.tree.isWithin(changes.parentId, node.id)) throw conflict('a container cannot be moved into itself');
      parentId = changes.parentId;
    }
    if (node.parentId === null && name !== node.name) throw conflict('the root container cannot be renamed');
    if (parentId !== null && (name !== node.name || parentId !== node.parentId)) {
      const clash = this.tree.childNamed(parentId, name);
      if (clash && clash.id !== node.id) throw duplicateName(name);
      if (node.parentId) this.touchParent(node.parentId);
      this.touchParent(parentId);
      node.version += 1;
    }
    node.name = name;
    node.parentId = parentId;
    if (changes.public !== undefined) node.public = changes.public;
    if (changes.mimeType !== undefined && node.kind === 'file') node.mimeType = changes.mimeType || DEFAULT_MIME;
    node.modified = this.now();
    await this.persist();
    return node;
  }

  /** Deep copy into `targetId`; file blobs are immutable, so copies share them. */
  async copy(user: string, id: string, targetId: string, newName?: string): Promise<NodeRecord> {
    const source = this.get(user, id);
    this.get(user, targetId, 'container');
    if (source.kind === 'container' && this.tree.isWithin(targetId, source.id)) {
      throw conflict('a container cannot be copied into itself');
    }
    const name = newName !== undefined ? checkName(newName) : source.name;
    this.#assertFree(user, targetId, name);
    const copyOf = (from: NodeRecord, parentId: string, asName: string): NodeRecord => {
      const node = this.#newNode(user, from.kind, asName, parentId);
      Object.assign(node, {
        mimeType: from.mimeType,
        public: from.public,
        bytes: from.bytes,
        blobId: from.blobId,
        tags: [...from.tags],
        metadata: { ...from.metadata },
        deadProps: { ...from.deadProps },
      });
      if (from.kind === 'container') for (const child of this.tree.children(from.id)) copyOf(child, node.id, child.name);
      return node;
    };
    const top = copyOf(source, targetId, name);
    this.touchParent(targetId);
    await this.persist();
    return top;
  }

  /**
   * Marks a read. Kept in memory and written with the next change: a download is not a state
   * change, and rewriting the whole state file per GET would make reads cost like writes.
   */
  touchAccessed(node: NodeRecord): void {
    node.accessed = this.now();
  }

  storedBytes(user: string): number {
    return this.tree.subtreeBytes(this.root(user).id);
  }

  /** Replaces the whole state with an empty one (then the caller seeds it). */
  async clear(): Promise<void> {
    this.locks.clear();
    const blobs = this.tree.referencedBlobs();
    this.#db.data = emptyState();
    this.tree.invalidate();
    await this.persist();
    for (const b of blobs) await this.blobs.delete(b);
  }

  async persist(): Promise<void> {
    this.tree.invalidate();
    await this.#db.write();
  }

  /** Every live node of the user. */
  liveNodesOf(user: string): NodeRecord[] {
    return Object.values(this.state.nodes).filter((n) => n.owner === user && this.tree.isLive(n));
  }

  #assertFree(user: string, parentId: string, name: string): void {
    this.get(user, parentId, 'container');
    if (this.tree.childNamed(parentId, name)) throw duplicateName(name);
  }

  /** Marks a container changed (its listing differs). */
  touchParent(parentId: string): void {
    const parent = this.tree.node(parentId);
    if (parent) parent.modified = this.now();
  }

  /** Deletes blobs once no node (live or recycled) points at them; copies share blobs. */
  async dropBlobsIfUnused(blobIds: Array<string | null>): Promise<void> {
    const referenced = this.tree.referencedBlobs();
    for (const id of new Set(blobIds)) if (id && !referenced.has(id)) await this.blobs.delete(id);
  }

  #newNode(owner: string, kind: NodeKind, name: string, parentId: string | null): NodeRecord {
    const now = this.now();
    const node: NodeRecord = {
      id: newId(),
      kind,
      owner,
      name,
      parentId,
      created: now,
      modified: now,
      accessed: now,
      version: 1,
      public: false,
      mimeType: '',
      bytes: 0,
      blobId: null,
      tags: [],
      metadata: {},
      deadProps: {},
      recycled: null,
    };
    this.state.nodes[node.id] = node;
    this.tree.invalidate();
    return node;
  }
}
