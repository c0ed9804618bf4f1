import { createHash } from 'node:crypto';
import type { NodeRecord } from '../domain/model.js';
import type { Links } from './links.js';

/** What the entity tags of entities and listings are made from: the fields their text depends on, never the text. */

/** One member of a listing, or one child inlined in a depth-2 container entity. */
export interface ItemView {
  node: NodeRecord;
  bytes: number;
  metadataKeys?: string[];
}

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
    for (const { node, bytes, metadataKeys } of items) {
      parts.push(
        this.#shape === 'link'
          ? `${node.kind[0]}${node.id}`
          : `${node.id}\n${entityKey(node, this.#links, bytes, metadataKeys)}`,
      );
    }
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
  return [
    links.base,
    node.owner,
    node.created,
    node.version,
    node.name,
    node.parentId,
    node.modified,
    node.accessed,
    bytes,
    node.mimeType,
    node.public,
    JSON.stringify(metadataKeys ?? null),
  ].join('\n');
}

/** A short digest of a key (not of a body): 96 bits, base64url. */
export function digest(text: string): string {
  return createHash('sha1').update(text).digest('base64url').slice(0, 16);
}
