import type { NodeRecord } from '../storage/schema.js';
import type { CacheShelf } from '../storage/store-cache.js';
import { ChildListing, byKey, keyed, listingKey, type Keyed } from './child-listing.js';
import type { TreeQueries } from './tree-queries.js';

/** What a listing reads from the tree. */
type ChildSource = Pick<TreeQueries, 'generation' | 'childIds' | 'node'>;

/** Containers with fewer live children are read afresh: cheaper than keeping their order. */
const KEPT_FROM = 1_000;
/** What a kept listing costs a member: two arrays of references, about 16 bytes. */
const KEPT_BYTES_A_MEMBER = 16;

export interface KeptListing {
  generation: number;
  listing: ChildListing;
}

/**
 * The one listing operation: a container's live children as they were at one moment (a ChildListing,
 * which orders them and yields to other clients while it does), for /v2, WebDAV, the HTML listing and
 * the inspector alike. The listing of a big container is kept (the least recently used few) and shared
 * by the listings that follow, until the tree changes; then it is brought up to date in linear time
 * (records unchanged in name and kind keep their place, new ones are sorted and merged in). A container
 * never listed before is put in order only as far as its readers need (see ChildListing).
 */
export class Listings {
  readonly #tree: ChildSource;
  readonly #kept: CacheShelf<KeptListing>;

  /** `kept`: where the listings of big containers are kept (the store's cache, bounded with everything in it). */
  constructor(tree: ChildSource, kept: CacheShelf<KeptListing>) {
    this.#tree = tree;
    this.#kept = kept;
  }

  /**
   * The live children of `containerId` as they are now, which later changes to the tree do not touch.
   * Members and their records are read at once (a lookup each); the order is known at once when an
   * earlier listing of the container could be brought up to date, else made as the listing is read.
   */
  of(containerId: string): ChildListing {
    const tree = this.#tree;
    const generation = tree.generation;
    const hit = this.#kept.get(containerId);
    if (hit?.generation === generation) return hit.listing;
    const ids = Array.from(tree.childIds(containerId));
    const live = liveRecords(tree, containerId, ids);
    const before = hit?.listing;
    const order = before?.orderedNow && updated(tree, containerId, before.orderedNow, ids, live.length);
    const listing = new ChildListing(
      live,
      order,
      before && sameMembers(before.unordered, live) ? before.digest : undefined,
    );
    if (live.length >= KEPT_FROM)
      this.#kept.set(containerId, { generation, listing }, live.length * KEPT_BYTES_A_MEMBER);
    else this.#kept.delete(containerId);
    return listing;
  }

  /** How many live children a container has, without ordering them. */
  count(containerId: string): number {
    const hit = this.#kept.peek(containerId);
    if (hit?.generation === this.#tree.generation) return hit.listing.length;
    let count = 0;
    for (const id of this.#tree.childIds(containerId)) if (this.#tree.node(id)?.recycled === null) count++;
    return count;
  }
}

const isLiveChild = (node: NodeRecord | undefined, containerId: string): node is NodeRecord =>
  node !== undefined && node.parentId === containerId && node.recycled === null;

/** The records of those of `ids` that are live children of the container. */
function liveRecords(tree: ChildSource, containerId: string, ids: string[]): NodeRecord[] {
  const live: NodeRecord[] = [];
  for (const id of ids) {
    const node = tree.node(id);
    if (isLiveChild(node, containerId)) live.push(node);
  }
  return live;
}

/** True when both hold the same records in the same order (nothing changed, so their digests agree). */
function sameMembers(a: readonly NodeRecord[], b: readonly NodeRecord[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * An older order brought up to date in linear time: members whose name and kind are unchanged
 * keep their place (with their current record), the rest leave, and the children new to it (found
 * from the end of the child set, where the tree puts new and renamed children) are sorted and put in
 * their places by binary search. Undefined when so much is new that sorting afresh is as cheap.
 */
function updated(
  tree: ChildSource,
  containerId: string,
  before: readonly NodeRecord[],
  ids: string[],
  live: number,
): NodeRecord[] | undefined {
  const stay: NodeRecord[] = [];
  for (const old of before) {
    const now = tree.node(old.id);
    if (isLiveChild(now, containerId) && now.kind === old.kind && now.name === old.name) stay.push(now);
  }
  let missing = live - stay.length;
  if (missing === 0) return stay;
  if (missing > live / 4) return undefined;
  const added: Keyed[] = [];
  for (let i = ids.length - 1; i >= 0 && missing > 0; i--) {
    const node = tree.node(ids[i]!);
    if (!isLiveChild(node, containerId)) continue;
    const entry = keyed(node);
    if (stay[placeOf(stay, entry, 0)]?.id === node.id) continue;
    added.push(entry);
    missing--;
  }
  return insertedInOrder(stay, added.sort(byKey));
}

/** The first index from `from` in `members` (in listing order) not below `entry`. */
function placeOf(members: readonly NodeRecord[], entry: Keyed, from: number): number {
  let lo = from;
  let hi = members.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const node = members[mid]!;
    if (byKey({ key: listingKey(node), node }, entry) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** `added` (in order) put into `members` (in order), each where a binary search by listing key finds its place. */
function insertedInOrder(members: readonly NodeRecord[], added: Keyed[]): NodeRecord[] {
  const out: NodeRecord[] = [];
  let from = 0;
  for (const entry of added) {
    const lo = placeOf(members, entry, from);
    for (let i = from; i < lo; i++) out.push(members[i]!);
    out.push(entry.node);
    from = lo;
  }
  for (let i = from; i < members.length; i++) out.push(members[i]!);
  return out;
}
