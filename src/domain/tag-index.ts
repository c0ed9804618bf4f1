import type { NodeRecord } from '../storage/schema.js';

/** Owner -> tag -> ids of the nodes carrying it (live or recycled; callers filter). */
export class TagIndex {
  readonly #byOwner = new Map<string, Map<string, Set<string>>>();

  add(node: NodeRecord): void {
    for (const tag of node.tags) this.addTag(node.owner, tag, node.id);
  }

  remove(node: NodeRecord): void {
    for (const tag of node.tags) this.removeTag(node.owner, tag, node.id);
  }

  /**
   * Moves the index from a node's old record to its new one, touching only the tags that differ:
   * a record whose tags did not change costs nothing, and an added tag (appended, as the store
   * adds them) costs one insert, however many tags the node carries.
   */
  replace(old: NodeRecord, next: NodeRecord): void {
    if (old.owner !== next.owner || old.id !== next.id) {
      this.remove(old);
      this.add(next);
      return;
    }
    const before = old.tags;
    const after = next.tags;
    if (before === after) return;
    let same = 0;
    const common = Math.min(before.length, after.length);
    while (same < common && before[same] === after[same]) same++;
    if (same === before.length) {
      for (let i = same; i < after.length; i++) this.addTag(next.owner, after[i]!, next.id);
      return;
    }
    // A removal or another order: by sets, linear in the tags.
    const kept = new Set(after);
    for (const tag of before) if (!kept.has(tag)) this.removeTag(old.owner, tag, old.id);
    const had = new Set(before);
    for (const tag of after) if (!had.has(tag)) this.addTag(next.owner, tag, next.id);
  }

  /** Whether the node `id` of `owner` carries `tag`. */
  has(owner: string, tag: string, id: string): boolean {
    return this.#byOwner.get(owner)?.get(tag)?.has(id) ?? false;
  }

  /** Tag -> node ids, for one owner. */
  of(owner: string): ReadonlyMap<string, ReadonlySet<string>> {
    return this.#byOwner.get(owner) ?? new Map();
  }

  clear(): void {
    this.#byOwner.clear();
  }

  /** One tag of one node (a tag change). */
  addTag(owner: string, tag: string, id: string): void {
    let tags = this.#byOwner.get(owner);
    if (!tags) this.#byOwner.set(owner, (tags = new Map()));
    let ids = tags.get(tag);
    if (!ids) tags.set(tag, (ids = new Set()));
    ids.add(id);
  }

  /** One tag of one node (a tag change). */
  removeTag(owner: string, tag: string, id: string): void {
    const tags = this.#byOwner.get(owner);
    const ids = tags?.get(tag);
    if (!ids) return;
    ids.delete(id);
    if (ids.size === 0) tags!.delete(tag);
  }
}
