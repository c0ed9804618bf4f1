import type { NodeRecord, StateData } from '../storage/schema.js';

/**
 * Read-only questions about the tree; the store's mutations build on them.
 * Children are found through a parent index rebuilt lazily after `invalidate()`, which the store
 * calls whenever it creates nodes or persists a change, so listings stay linear in their size.
 */
export class Tree {
  readonly #state: () => StateData;
  #byParent: Map<string, NodeRecord[]> | undefined;

  constructor(state: () => StateData) {
    this.#state = state;
  }

  invalidate(): void {
    this.#byParent = undefined;
  }

  /** All children (live or recycled) of a container, unsorted. */
  #childrenOf(containerId: string): NodeRecord[] {
    if (!this.#byParent) {
      this.#byParent = new Map();
      for (const n of Object.values(this.#state().nodes)) {
        if (n.parentId === null) continue;
        const list = this.#byParent.get(n.parentId);
        if (list) list.push(n);
        else this.#byParent.set(n.parentId, [n]);
      }
    }
    return this.#byParent.get(containerId) ?? [];
  }

  node(id: string): NodeRecord | undefined {
    return Object.hasOwn(this.#state().nodes, id) ? this.#state().nodes[id] : undefined;
  }

  /** Live: not recycled and no recycled ancestor. */
  isLive(node: NodeRecord): boolean {
    for (let n: NodeRecord | undefined = node; n; n = n.parentId ? this.node(n.parentId) : undefined) {
      if (n.recycled !== null) return false;
    }
    return true;
  }

  /** Live children, containers first, then files, each by name ignoring case (inferred order). */
  children(containerId: string): NodeRecord[] {
    const kids = this.#childrenOf(containerId).filter((n) => n.recycled === null);
    return kids.sort((a, b) => (a.kind !== b.kind ? (a.kind === 'container' ? -1 : 1) : byName(a.name, b.name)));
  }

  childNamed(containerId: string, name: string): NodeRecord | undefined {
    const wanted = name.normalize('NFC');
    return this.#childrenOf(containerId).find((n) => n.recycled === null && n.name === wanted);
  }

  /** Every node under (and including) `id`, recycled ones too: what a purge removes. */
  withDescendants(id: string): NodeRecord[] {
    const root = this.node(id);
    if (!root) return [];
    const out: NodeRecord[] = [root];
    for (let i = 0; i < out.length; i++) out.push(...this.#childrenOf(out[i]!.id));
    return out;
  }

  /** Every live node under (and including) `id`, parents before children. */
  subtree(id: string): NodeRecord[] {
    const root = this.node(id);
    if (!root) return [];
    const out: NodeRecord[] = [root];
    for (let i = 0; i < out.length; i++) {
      const n = out[i]!;
      if (n.kind === 'container') out.push(...this.children(n.id));
    }
    return out;
  }

  subtreeBytes(id: string): number {
    return this.subtree(id).reduce((sum, n) => sum + (n.kind === 'file' ? n.bytes : 0), 0);
  }

  /** True when `candidate` is `ancestorId` or lies below it. */
  isWithin(candidate: string, ancestorId: string): boolean {
    for (let n = this.node(candidate); n; n = n.parentId ? this.node(n.parentId) : undefined) {
      if (n.id === ancestorId) return true;
    }
    return false;
  }

  /** Names from below the root down to `id` (the root itself has none). */
  pathNames(id: string): string[] {
    const names: string[] = [];
    for (let n = this.node(id); n && n.parentId; n = this.node(n.parentId)) names.unshift(n.name);
    return names;
  }

  /** Every blob id some node (live or recycled) still points at. */
  referencedBlobs(): Set<string> {
    const ids = new Set<string>();
    for (const n of Object.values(this.#state().nodes)) if (n.blobId) ids.add(n.blobId);
    return ids;
  }
}

/** Case-insensitive name order, code points breaking ties, so listings are stable. */
function byName(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
