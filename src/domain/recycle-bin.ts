import type { NodeRecord } from '../storage/schema.js';
import { conflict, notFound } from './errors.js';
import type { StoreCore, WriteContext } from './store-core.js';
import { purgeTree } from './tree-operations.js';

/** Deleted objects (inferred: DELETE moves an object here, it can be restored or purged). */
export class RecycleBin {
  readonly #core: StoreCore;

  constructor(core: StoreCore) {
    this.#core = core;
  }

  /** Moves the object (and so its subtree) to the recycle bin: one record changes, whatever the subtree. */
  async add(user: string, id: string, ctx?: WriteContext): Promise<NodeRecord> {
    return this.#core.transact(() => {
      const node = this.#core.liveNode(user, id);
      if (node.parentId === null) throw conflict('the root container cannot be deleted');
      this.#core.checkWrite(user, { remove: id }, ctx);
      const next = { ...node, recycled: this.#core.now() };
      return { change: { nodes: [next, ...this.#core.touched(node.parentId)] }, result: next };
    });
  }

  /** Objects the user deleted, newest first (only the top of each deleted subtree). */
  list(user: string): NodeRecord[] {
    return this.#core.tree.recycledOf(user).sort((a, b) => (b.recycled ?? 0) - (a.recycled ?? 0));
  }

  item(user: string, id: string): NodeRecord {
    const node = this.#core.tree.node(id);
    if (!node || node.owner !== user || node.recycled === null) throw notFound('recycle bin item');
    return node;
  }

  /** Puts a recycled object back where it was; 422 if its name was taken meanwhile. */
  async restore(user: string, id: string, ctx?: WriteContext): Promise<NodeRecord> {
    return this.#core.transact(() => {
      const node = this.item(user, id);
      const parent = node.parentId ? this.#core.tree.node(node.parentId) : undefined;
      if (!parent || !this.#core.tree.isLive(parent)) throw conflict('the original container no longer exists');
      this.#core.checkWrite(user, { members: [parent.id] }, ctx);
      this.#core.assertFree(parent.id, node.name);
      const next = { ...node, recycled: null };
      return { change: { nodes: [next, ...this.#core.touched(parent.id)] }, result: next };
    });
  }

  /** Deletes for good: a recycled item, or with `live` a live object straight away (WebDAV). */
  async purge(user: string, id: string, live = false): Promise<void> {
    await purgeTree(this.#core, user, id, live);
  }
}
