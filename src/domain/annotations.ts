import type { NodeRecord } from '../storage/schema.js';
import { invalid, notFound } from './errors.js';
import { checkName } from './names.js';
import type { StoreCore, WriteContext } from './store-core.js';
import { plainDict } from './record-values.js';

/** Tags and metadata key/values on containers and files (shapes inferred: no wire example survives). */
export class Annotations {
  readonly #core: StoreCore;

  constructor(core: StoreCore) {
    this.#core = core;
  }

  /** Adds a tag (once: adding one the object has changes nothing); logged as the tag alone, not the record. */
  async addTag(user: string, id: string, rawTag: string, ctx?: WriteContext): Promise<void> {
    await this.#core.transact(() => {
      const node = this.#writable(user, id, ctx);
      const tag = checkName(rawTag);
      // The index answers whether the node has it, whatever its number of tags.
      if (this.#core.tree.tags.has(node.owner, tag, node.id)) return { result: undefined };
      return { change: { tags: [{ id: node.id, add: tag }] }, result: undefined };
    });
  }

  async removeTag(user: string, id: string, tag: string, ctx?: WriteContext): Promise<void> {
    await this.#core.transact(() => {
      const node = this.#writable(user, id, ctx);
      if (!this.#core.tree.tags.has(node.owner, tag, node.id)) throw notFound('tag on this object');
      return { change: { tags: [{ id: node.id, remove: tag }] }, result: undefined };
    });
  }

  /** Tags on the user's live objects, sorted. */
  tagsInUse(user: string): string[] {
    const out: string[] = [];
    for (const [tag, ids] of this.#core.tree.tags.of(user)) if (this.#anyLive(ids)) out.push(tag);
    return out.sort();
  }

  taggedWith(user: string, tag: string): NodeRecord[] {
    const found: NodeRecord[] = [];
    for (const id of this.#core.tree.tags.of(user).get(tag) ?? []) {
      const node = this.#core.tree.node(id)!;
      if (this.#core.tree.isLive(node)) found.push(node);
    }
    if (found.length === 0) throw notFound('tag');
    return found;
  }

  async setMetadata(user: string, id: string, key: string, value: string, ctx?: WriteContext): Promise<void> {
    await this.#change(user, id, ctx, (node) => {
      if (key.length === 0 || key.length > 255) throw invalid('metadata key must be 1 to 255 characters');
      const metadata = plainDict(node.metadata);
      metadata[key] = value;
      return { ...node, metadata };
    });
  }

  async deleteMetadata(user: string, id: string, key: string, ctx?: WriteContext): Promise<void> {
    await this.#change(user, id, ctx, (node) => {
      if (!Object.hasOwn(node.metadata, key)) throw notFound('metadata item');
      const metadata = plainDict(node.metadata);
      delete metadata[key];
      return { ...node, metadata };
    });
  }

  /** Owner, then conditions and locks, then the edit (undefined: nothing to change). */
  #change(
    user: string,
    id: string,
    ctx: WriteContext | undefined,
    edit: (node: NodeRecord) => NodeRecord | undefined,
  ): Promise<NodeRecord> {
    return this.#core.transact(() => {
      const node = this.#writable(user, id, ctx);
      const next = edit(node);
      return next ? { change: { nodes: [next] }, result: next } : { result: node };
    });
  }

  /** Owner first, then the request's conditions and the locks: the node a write may change. */
  #writable(user: string, id: string, ctx: WriteContext | undefined): NodeRecord {
    const node = this.#core.liveNode(user, id);
    this.#core.checkWrite(user, { content: id }, ctx);
    return node;
  }

  #anyLive(ids: ReadonlySet<string>): boolean {
    for (const id of ids) if (this.#core.tree.isLive(this.#core.tree.node(id)!)) return true;
    return false;
  }
}
