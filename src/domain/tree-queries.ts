import type { ChangeSet } from '../storage/persistence.js';
import type { NodeRecord, UserRecord } from '../storage/schema.js';
import { failpoint } from '../storage/failpoints.js';

/** What undoes an applied change set: apply it (then drop `droppedUsers`) to get the state before. */
export interface Undo extends ChangeSet {
  nodes: NodeRecord[];
  removed: string[];
  users: Array<{ login: string; user: UserRecord }>;
  /** Logins the change added. */
  droppedUsers: string[];
}

/** The questions routes and views may ask about the tree; nothing here changes it. */
export interface TreeQueries {
  /** A counter that grows with every applied change (and every whole load). */
  readonly generation: number;
  node(id: string): NodeRecord | undefined;
  isLive(node: NodeRecord): boolean;
  children(containerId: string): NodeRecord[];
  /** Every child id (live or recycled) of a container, unordered. */
  childIds(containerId: string): Iterable<string>;
  childNamed(containerId: string, name: string): NodeRecord | undefined;
  subtree(id: string, max?: number): NodeRecord[];
  subtreeBytes(id: string): number;
  isWithin(candidate: string, ancestorId: string): boolean;
  pathNames(id: string): string[];
}

/*
 * Listings of big containers. A listing reads one ordered snapshot of a container's live children
 * (records are replaced, never changed in place, so an array of them is the container as it was at
 * one moment) and writes it a page at a time. The snapshot of a big container is kept and shared by
 * the listings that follow, until the tree changes; then it is brought up to date in linear time
 * (records unchanged in name and kind keep their place, new ones are sorted and merged in), and only
 * a container never listed before is sorted whole, in slices that let other clients in.
 */

/** What a listing reads from the tree. */
type ChildSource = Pick<TreeQueries, 'generation' | 'childIds' | 'node'>;

/** Members handled between two turns of the event loop while a snapshot is made or a listing written. */
export const CHILD_PAGE = 2_000;
/** Containers with fewer live children are sorted afresh: cheaper than keeping their order. */
const KEPT_FROM = 1_000;
/** Big containers whose order is kept (an array of references each: about 8 bytes a child). */
const KEPT_CONTAINERS = 8;

interface KeptOrder {
  generation: number;
  members: readonly NodeRecord[];
}

/** Per tree (several mocks in one process are separate), the kept orders, least recently used first. */
const keptOrders = new WeakMap<ChildSource, Map<string, KeptOrder>>();

/**
 * The listing order, as one string per node: containers first, then files, each by name ignoring
 * case, then by the exact name (Tree.children's order). Names hold no control characters, so the
 * NUL separator sorts a name before every longer name that starts with it.
 */
export function listingKey(node: NodeRecord): string {
  return `${node.kind === 'container' ? '0' : '1'}${node.name.toLowerCase()}\u0000${node.name}`;
}

/**
 * The live children of `containerId`, in listing order, as they were at one moment (the call): an
 * array the caller must not change, which later changes to the tree do not touch. Members and their
 * records are read at once (a lookup each); only a container never listed before is then put in
 * order over several turns of the event loop.
 */
export async function childSnapshot(tree: ChildSource, containerId: string): Promise<readonly NodeRecord[]> {
  const generation = tree.generation;
  const kept = keptOf(tree);
  const hit = kept.get(containerId);
  if (hit?.generation === generation) {
    kept.delete(containerId);
    kept.set(containerId, hit);
    return hit.members;
  }
  const ids = Array.from(tree.childIds(containerId));
  const sorted =
    (hit && updated(tree, containerId, hit.members, ids)) ??
    (await sortedInSlices(liveRecords(tree, containerId, ids)));
  kept.delete(containerId);
  if (sorted.length >= KEPT_FROM) {
    kept.set(containerId, { generation, members: sorted });
    for (const id of kept.keys()) {
      if (kept.size <= KEPT_CONTAINERS) break;
      kept.delete(id);
    }
  }
  return sorted;
}

/** How many live children a container has, without ordering them. */
export function liveChildCount(tree: ChildSource, containerId: string): number {
  const hit = keptOrders.get(tree)?.get(containerId);
  if (hit?.generation === tree.generation) return hit.members.length;
  let count = 0;
  for (const id of tree.childIds(containerId)) if (tree.node(id)?.recycled === null) count++;
  return count;
}

/**
 * The members from index `from` to `to` of a snapshot, a page of at most CHILD_PAGE at a time, as
 * the listing writes them. The failpoint `listing-page-read` marks each page, so a test can make a
 * listing fail after its first bytes are out.
 */
export function* pagesOf(members: readonly NodeRecord[], from: number, to: number): Generator<readonly NodeRecord[]> {
  for (let i = Math.max(0, from); i < Math.min(to, members.length); i += CHILD_PAGE) {
    failpoint('listing-page-read');
    yield members.slice(i, Math.min(to, members.length, i + CHILD_PAGE));
  }
}

function keptOf(tree: ChildSource): Map<string, KeptOrder> {
  let kept = keptOrders.get(tree);
  if (!kept) keptOrders.set(tree, (kept = new Map()));
  return kept;
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

/**
 * An older snapshot brought up to date in linear time: members whose name and kind are unchanged
 * keep their place (with their current record), the rest leave, and the children new to it (found
 * from the end of the child set, where the tree puts new and renamed children) are sorted and put in
 * their places by binary search. Undefined when so much is new that sorting afresh is as cheap.
 */
function updated(
  tree: ChildSource,
  containerId: string,
  before: readonly NodeRecord[],
  ids: string[],
): NodeRecord[] | undefined {
  let live = 0;
  for (const id of ids) if (isLiveChild(tree.node(id), containerId)) live++;
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
    if (stay[placeOf(stay, entry.key, 0)]?.id === node.id) continue;
    added.push(entry);
    missing--;
  }
  return insertedInOrder(stay, added.sort(byKey));
}

/** The first index from `from` in `members` (in listing order) whose key is not below `key`. */
function placeOf(members: readonly NodeRecord[], key: string, from: number): number {
  let lo = from;
  let hi = members.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (listingKey(members[mid]!) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** `added` (in order) put into `members` (in order), each where a binary search by listing key finds its place. */
function insertedInOrder(members: readonly NodeRecord[], added: Keyed[]): NodeRecord[] {
  const out: NodeRecord[] = [];
  let from = 0;
  for (const { key, node } of added) {
    const lo = placeOf(members, key, from);
    for (let i = from; i < lo; i++) out.push(members[i]!);
    out.push(node);
    from = lo;
  }
  for (let i = from; i < members.length; i++) out.push(members[i]!);
  return out;
}

interface Keyed {
  key: string;
  node: NodeRecord;
}
const keyed = (node: NodeRecord): Keyed => ({ key: listingKey(node), node });
const byKey = (a: Keyed, b: Keyed): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * A bottom-up merge sort by listing key that yields a turn of the event loop every CHILD_PAGE
 * members sorted or merged, so a container never sorted before holds no other client back for long.
 */
async function sortedInSlices(nodes: NodeRecord[]): Promise<NodeRecord[]> {
  let from: Keyed[] = [];
  for (let i = 0; i < nodes.length; i++) {
    from.push(keyed(nodes[i]!));
    if (i % CHILD_PAGE === CHILD_PAGE - 1) await nextTurn();
  }
  for (let i = 0; i < from.length; i += CHILD_PAGE) {
    const run = from.slice(i, i + CHILD_PAGE).sort(byKey);
    for (let k = 0; k < run.length; k++) from[i + k] = run[k]!;
    if (i + CHILD_PAGE < from.length) await nextTurn();
  }
  let to: Keyed[] = new Array<Keyed>(from.length);
  let work = 0;
  for (let width = CHILD_PAGE; width < from.length; width *= 2) {
    for (let lo = 0; lo < from.length; lo += 2 * width) {
      const mid = Math.min(lo + width, from.length);
      const hi = Math.min(lo + 2 * width, from.length);
      let i = lo;
      let j = mid;
      for (let k = lo; k < hi; k++) {
        to[k] = j >= hi || (i < mid && from[i]!.key <= from[j]!.key) ? from[i++]! : from[j++]!;
        if (++work % CHILD_PAGE === 0) await nextTurn();
      }
    }
    [from, to] = [to, from];
  }
  return from.map((k) => k.node);
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
