import type { NodeRecord } from '../storage/schema.js';

/** Owner -> tag -> ids of the nodes carrying it (live or recycled; callers filter). */
export class TagIndex {
  readonly #byOwner = new Map<string, Map<string, Set<string>>>();

  add(node: NodeRecord): void {
    if (node.tags.length === 0) return;
    let tags = this.#byOwner.get(node.owner);
    if (!tags) this.#byOwner.set(node.owner, (tags = new Map()));
    for (const tag of node.tags) {
      let ids = tags.get(tag);
      if (!ids) tags.set(tag, (ids = new Set()));
      ids.add(node.id);
    }
  }

  remove(node: NodeRecord): void {
    const tags = this.#byOwner.get(node.owner);
    if (!tags) return;
    for (const tag of node.tags) {
      const ids = tags.get(tag);
      ids?.delete(node.id);
      if (ids?.size === 0) tags.delete(tag);
    }
  }

  /** Tag -> node ids, for one owner. */
  of(owner: string): ReadonlyMap<string, ReadonlySet<string>> {
    return this.#byOwner.get(owner) ?? new Map();
  }

  clear(): void {
    this.#byOwner.clear();
  }
}
