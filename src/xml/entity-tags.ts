import { createHash } from 'node:crypto';
import type { NodeRecord } from '../domain/model.js';
import type { Links } from './links.js';

/** What the entity tags of entities and listings are made from: the fields their text depends on, never the text. */

/** One member of a listing, or one child inlined in a depth-2 container entity. */
export interface ItemView {
  node: NodeRecord;
  bytes: number;
  metadataKeys?: string[];
  /** Its entityKey, made once for the listing's tag and its text alike. */
  key?: string;
}

/** An item's entityKey, made on first use. */
export const itemKey = (item: ItemView, links: Links): string =>
  (item.key ??= entityKey(item.node, links, item.bytes, item.metadataKeys));

/**
 * A file-list's ETag (or a depth-2 container entity's), made from what its text depends on (each
 * member's kind and id, and at depth 1 or 2 every field of its entity; or a digest of the members that
 * fixes their order, see ChildListing.digest), never by hashing the text: items are added a page at a time.
 */
export class ListingTag {
  readonly #hash = createHash('sha1');
  readonly #links: Links;
  readonly #shape: 'link' | 'wrapped' | 'inline';

  constructor(links: Links, shape: 'link' | 'wrapped' | 'inline', start: number, total: number) {
    this.#links = links;
    this.#shape = shape;
    this.#hash.update(`${links.base} ${shape} ${start} ${total}`);
  }

  add(items: readonly ItemView[]): void {
    const parts: string[] = [];
    for (const item of items)
      parts.push(
        this.#shape === 'link'
          ? `${item.node.kind[0]}${item.node.id}`
          : `${item.node.id}\n${itemKey(item, this.#links)}`,
      );
    this.#hash.update(`\n${parts.join('\n')}`);
  }

  /** Every member at once, by a digest of what fixes the listing's members and order (depth 0 links only). */
  addMembers(digest: string): void {
    this.#hash.update(`\nmembers ${digest}`);
  }

  value(count: number): string {
    return `"L${count}-${this.#hash.digest('base64url').slice(0, 16)}"`;
  }
}

/** Every field an entity's text depends on besides its id (a record is replaced when its version grows). */
export function entityKey(node: NodeRecord, links: Links, bytes: number, metadataKeys: string[] | undefined): string {
  const { owner, created, version, name, parentId, modified, accessed, mimeType } = node;
  const keys = JSON.stringify(metadataKeys ?? null);
  return `${links.base}\n${owner}\n${created}\n${version}\n${name}\n${parentId ?? ''}\n${modified}\n${accessed}\n${bytes}\n${mimeType}\n${node.public}\n${keys}`;
}

/** A short digest of a key (not of a body): 96 bits, base64url. */
export function digest(text: string): string {
  return createHash('sha1').update(text).digest('base64url').slice(0, 16);
}
