import type { NodeRecord } from '../storage/schema.js';
import { inListingOrder } from './child-listing.js';
import { mapOf, nfc, setOf } from './record-values.js';

/**
 * The children of every container, kept live as nodes are indexed and unindexed: every child id
 * (live or recycled) by parent, and the live children by NFC name (what a name clash is checked
 * against). It holds ids only; the records stay in the tree's one map, read through `nodeOf`.
 */
export class ChildIndex {
  readonly #kids = new Map<string, Set<string>>();
  readonly #named = new Map<string, Map<string, string>>();
  readonly #nodeOf: (id: string) => NodeRecord | undefined;

  constructor(nodeOf: (id: string) => NodeRecord | undefined) {
    this.#nodeOf = nodeOf;
  }

  clear(): void {
    this.#kids.clear();
    this.#named.clear();
  }

  /** Files `n` under its parent (a root has none). */
  add(n: NodeRecord): void {
    if (n.parentId === null) return;
    setOf(this.#kids, n.parentId).add(n.id);
    if (n.recycled === null) mapOf(this.#named, n.parentId).set(nfc(n.name), n.id);
  }

  /** Takes `n` (as it was indexed) from under its parent. */
  remove(n: NodeRecord): void {
    if (n.parentId === null) return;
    this.#kids.get(n.parentId)?.delete(n.id);
    const named = this.#named.get(n.parentId);
    const key = nfc(n.name);
    if (named?.get(key) === n.id) named.delete(key);
  }

  /** Drops what is left of a removed container's own entries (its children were removed with it). */
  forget(containerId: string): void {
    if (this.#kids.get(containerId)?.size === 0) this.#kids.delete(containerId);
    this.#named.delete(containerId);
  }

  /** Live children in listing order (containers first, then files, each by name ignoring case; inferred). */
  children(containerId: string): NodeRecord[] {
    const kids: NodeRecord[] = [];
    for (const id of this.#kids.get(containerId) ?? []) {
      const n = this.#nodeOf(id)!;
      if (n.recycled === null) kids.push(n);
    }
    return inListingOrder(kids);
  }

  childNamed(containerId: string, name: string): NodeRecord | undefined {
    const id = this.#named.get(containerId)?.get(nfc(name));
    return id === undefined ? undefined : this.#nodeOf(id);
  }

  /** Every live node under (and including) `id`, parents before children; stops past `max` nodes. */
  subtree(id: string, max: number): NodeRecord[] {
    const root = this.#nodeOf(id);
    if (!root) return [];
    const out: NodeRecord[] = [root];
    for (let i = 0; i < out.length && out.length <= max; i++) {
      const n = out[i]!;
      if (n.kind === 'container') for (const kid of this.children(n.id)) out.push(kid);
    }
    return out;
  }

  /** `rootId` and the id of every node (live or recycled) below it, parents before children. */
  idsUnder(rootId: string): string[] {
    const out = [rootId];
    for (let i = 0; i < out.length; i++) for (const id of this.childIds(out[i]!)) out.push(id);
    return out;
  }

  /** Every child id (live or recycled) of a container. */
  childIds(containerId: string): Iterable<string> {
    return this.#kids.get(containerId) ?? [];
  }
}
