import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { BlobStore, StoredBlob } from '../storage/blob-store.js';
import type { NodeRecord, StateData, UserRecord } from '../storage/schema.js';
import { duplicateName, invalid, notFound } from './errors.js';
import { checkName } from './names.js';
import { DEFAULT_MIME, newNode } from './node-records.js';
import { SLICE } from './tree-operations.js';
import { NO_TAGS, plainDict, recordDict } from './record-values.js';

export interface BuiltNodeInfo {
  tags?: string[];
  metadata?: Record<string, string>;
}

export interface BuiltFileInfo extends BuiltNodeInfo {
  name: string;
  mimeType?: string;
  public?: boolean;
}

/** Blob writes in flight while a state is built (blobs are small and many; the disk likes a queue). */
const BLOB_CONCURRENCY = 16;

/**
 * A new state (a seed, a reset, the trees a recording shows) built aside, with the same checks the
 * store's operations make, so the store can swap it in with one commit — or drop it, changing nothing.
 */
export class StateBuilder {
  readonly #blobs: BlobStore;
  readonly #now: number;
  readonly #users = new Map<string, UserRecord>();
  readonly #nodes = new Map<string, NodeRecord>();
  readonly #names = new Map<string, Set<string>>();
  readonly #pending: Array<{ node: NodeRecord; content: Buffer }> = [];
  readonly #written: string[] = [];

  constructor(blobs: BlobStore, now: number) {
    this.#blobs = blobs;
    this.#now = now;
  }

  /** A user with a root container (id as given, e.g. as recorded). */
  addUser(login: string, rootId?: string): NodeRecord {
    const existing = this.#users.get(login);
    if (existing) return this.#nodes.get(existing.rootId)!;
    const root = newNode(login, 'container', '/', null, this.#now, rootId);
    this.#users.set(login, { rootId: root.id });
    this.#nodes.set(root.id, root);
    return root;
  }

  root(login: string): NodeRecord {
    const user = this.#users.get(login);
    if (!user) throw notFound('user');
    return this.#nodes.get(user.rootId)!;
  }

  addContainer(owner: string, parentId: string, name: string, info: BuiltNodeInfo = {}): NodeRecord {
    return this.#add({
      ...newNode(owner, 'container', this.#freeName(parentId, name), parentId, this.#now),
      ...annotations(info),
    });
  }

  /** A file whose content is written to a blob by `writeBlobs`. */
  addFile(owner: string, parentId: string, info: BuiltFileInfo, content: Buffer = Buffer.alloc(0)): NodeRecord {
    const node = this.#add({
      ...newNode(owner, 'file', this.#freeName(parentId, info.name), parentId, this.#now),
      ...annotations(info),
      mimeType: info.mimeType?.trim() || DEFAULT_MIME,
      public: info.public ?? false,
    });
    this.#pending.push({ node, content });
    return node;
  }

  /** A node as recorded elsewhere (a recording of the real service): ids and names kept, not checked. */
  addRecord(record: NodeRecord, content?: Buffer): void {
    this.#nodes.set(record.id, record);
    if (record.kind === 'file') this.#pending.push({ node: record, content: content ?? Buffer.alloc(0) });
  }

  /**
   * A node made whole by a generator (ids unique and names checked by it; a file's content is a
   * synthetic blob id, domain/synthetic-files.ts): kept as given, with no blob to write.
   */
  addGenerated(node: NodeRecord): void {
    this.#nodes.set(node.id, node);
  }

  /**
   * Writes every pending file's content; on failure the blobs written so far are dropped. An empty
   * file needs no blob, and files with the same bytes share one (blobs are immutable, as for copies):
   * bytes are hashed only when another content has their length.
   */
  async writeBlobs(): Promise<void> {
    const byContent = new Map<string, Promise<StoredBlob>>();
    const work = this.#pending.filter(({ content }) => content.length > 0);
    const ofLength = new Map<number, number>();
    for (const { content } of work) ofLength.set(content.length, (ofLength.get(content.length) ?? 0) + 1);
    let next = 0;
    let failed = false;
    const worker = async (): Promise<void> => {
      while (next < work.length && !failed) {
        const { node, content } = work[next++]!;
        const key =
          ofLength.get(content.length) === 1
            ? `${content.length}`
            : `${content.length}:${createHash('sha256').update(content).digest('base64')}`;
        let blob = byContent.get(key);
        if (!blob) {
          byContent.set(key, (blob = this.#blobs.put(content)));
          const { blobId } = await blob;
          if (blobId) this.#written.push(blobId);
        }
        const { blobId, size } = await blob;
        node.blobId = blobId;
        node.bytes = size;
        if (next % SLICE === 0) await nextTurn();
      }
    };
    // Every worker settles before a failure is handled, so no blob is written after the discard.
    const outcomes = await Promise.allSettled(
      Array.from({ length: Math.min(BLOB_CONCURRENCY, work.length) }, () =>
        worker().catch((err: unknown) => ((failed = true), Promise.reject(err))),
      ),
    );
    const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failure) {
      await this.discard();
      throw failure.reason;
    }
    this.#pending.length = 0;
  }

  /** Drops what was built (its blobs); for a build that will not be swapped in. */
  async discard(): Promise<void> {
    for (const id of this.#written.splice(0)) await this.#blobs.delete(id);
  }

  /** The built state as a plain document. */
  state(): StateData {
    if (this.#pending.length > 0) throw new Error('writeBlobs() must run before state()');
    const users = Object.create(null) as Record<string, UserRecord>;
    const nodes = Object.create(null) as Record<string, NodeRecord>;
    for (const [login, user] of this.#users) users[login] = user;
    for (const [id, node] of this.#nodes) nodes[id] = node;
    return { schema: 1, users, nodes };
  }

  #freeName(parentId: string, rawName: string): string {
    const parent = this.#nodes.get(parentId);
    if (!parent || parent.kind !== 'container') throw notFound('container');
    const name = checkName(rawName);
    let names = this.#names.get(parentId);
    if (!names) this.#names.set(parentId, (names = new Set()));
    if (names.has(name)) throw duplicateName(name);
    names.add(name);
    return name;
  }

  #add(node: NodeRecord): NodeRecord {
    this.#nodes.set(node.id, node);
    return node;
  }
}

/** Tags and metadata as the store's annotation operations would leave them (checked the same way). */
function annotations(info: BuiltNodeInfo): Pick<NodeRecord, 'tags' | 'metadata'> {
  const tags: string[] = [];
  for (const raw of info.tags ?? []) {
    const tag = checkName(raw);
    if (!tags.includes(tag)) tags.push(tag);
  }
  const metadata = plainDict();
  for (const [key, value] of Object.entries(info.metadata ?? {})) {
    if (key.length === 0 || key.length > 255) throw invalid('metadata key must be 1 to 255 characters');
    metadata[key] = value;
  }
  return { tags: tags.length === 0 ? NO_TAGS : tags, metadata: recordDict(metadata) };
}
