import type { NodeRecord } from './schema.js';
import { nodeOf, putNode, type AnyState } from './state-maps.js';

/**
 * One tag added to or removed from one node. A tag change travels as this small entry rather than as
 * the node's whole record, so its log record costs the same however many tags the node carries.
 * Applying one twice does no harm: adding a tag the node has, or removing one it lacks, changes nothing.
 */
export type TagChange = { id: string; add: string } | { id: string; remove: string };

/**
 * Applies tag changes to a plain state document (log replay at start, and the durable state a snapshot is
 * made of). A record is never changed in place: the document may share records with the store's memory.
 * A node's list is copied the first time one of these changes meets it; later adds append to that copy
 * (which only this applier holds), so a run of adds to one node costs one copy, not one per add. Use one
 * applier for a whole replay, and drop it once the document is handed on.
 */
export class TagChangeApplier {
  /** The lists this applier made (only it holds them yet), with their tags as a set for membership. */
  readonly #own = new Map<string[], Set<string>>();

  apply(state: AnyState, change: TagChange): void {
    const node: NodeRecord | undefined = nodeOf(state, change.id);
    if (!node) return;
    const own = this.#own.get(node.tags);
    const has = own ? (tag: string) => own.has(tag) : (tag: string) => node.tags.includes(tag);
    if ('add' in change) {
      if (has(change.add)) return;
      const tags = own ? node.tags : this.#adopt([...node.tags]);
      tags.push(change.add);
      this.#own.get(tags)!.add(change.add);
      if (tags !== node.tags) putNode(state, { ...node, tags });
    } else {
      if (!has(change.remove)) return;
      const tags = this.#adopt(node.tags.filter((t) => t !== change.remove));
      if (own) this.#own.delete(node.tags);
      putNode(state, { ...node, tags });
    }
  }

  /** A list this applier just made. */
  #adopt(tags: string[]): string[] {
    this.#own.set(tags, new Set(tags));
    return tags;
  }
}
