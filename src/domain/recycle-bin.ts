import type { NodeRecord } from '../storage/schema.js';
import type { CloudStore } from './cloud-store.js';
import { conflict, duplicateName, notFound } from './errors.js';

/** Deleted objects (inferred: DELETE moves an object here, it can be restored or purged). */
export class RecycleBin {
  readonly #store: CloudStore;

  constructor(store: CloudStore) {
    this.#store = store;
  }

  /** Moves the object (and so its subtree) to the recycle bin. */
  async add(user: string, id: string): Promise<NodeRecord> {
    const node = this.#store.get(user, id);
    if (node.parentId === null) throw conflict('the root container cannot be deleted');
    node.recycled = this.#store.now();
    this.#store.touchParent(node.parentId);
    await this.#store.persist();
    return node;
  }

  /** Objects the user deleted, newest first (only the top of each deleted subtree). */
  list(user: string): NodeRecord[] {
    return Object.values(this.#store.state.nodes)
      .filter((n) => n.owner === user && n.recycled !== null)
      .sort((a, b) => (b.recycled ?? 0) - (a.recycled ?? 0));
  }

  item(user: string, id: string): NodeRecord {
    const node = this.#store.tree.node(id);
    if (!node || node.owner !== user || node.recycled === null) throw notFound('recycle bin item');
    return node;
  }

  /** Puts a recycled object back where it was; 422 if its name was taken meanwhile. */
  async restore(user: string, id: string): Promise<NodeRecord> {
    const node = this.item(user, id);
    const parent = node.parentId ? this.#store.tree.node(node.parentId) : undefined;
    if (!parent || !this.#store.tree.isLive(parent)) throw conflict('the original container no longer exists');
    if (this.#store.tree.childNamed(parent.id, node.name)) throw duplicateName(node.name);
    node.recycled = null;
    this.#store.touchParent(parent.id);
    await this.#store.persist();
    return node;
  }

  /** Deletes for good: a recycled item, or with `live` a live object straight away (WebDAV). */
  async purge(user: string, id: string, live = false): Promise<void> {
    const top = live ? this.#store.get(user, id) : this.item(user, id);
    if (top.parentId === null) throw conflict('the root container cannot be deleted');
    // Children of a recycled container are not live, so the walk includes recycled nodes.
    const doomed = this.#store.tree.withDescendants(top.id);
    for (const n of doomed) delete this.#store.state.nodes[n.id];
    if (live && top.parentId) this.#store.touchParent(top.parentId);
    await this.#store.persist();
    await this.#store.dropBlobsIfUnused(doomed.map((n) => n.blobId));
  }
}
