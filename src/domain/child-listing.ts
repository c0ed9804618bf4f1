import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { failpoint } from '../storage/failpoints.js';
import type { NodeRecord } from '../storage/schema.js';

/** Members handled between two turns of the event loop while a listing is ordered or written. */
export const CHILD_PAGE = 2_000;

/**
 * The listing order, as one string per node: containers first, then files, each by name ignoring
 * case, then by the exact name (Tree.children's order). Names hold no control characters, so the
 * NUL separator sorts a name before every longer name that starts with it.
 */
export function listingKey(node: NodeRecord): string {
  return `${node.kind === 'container' ? '0' : '1'}${node.name.toLowerCase()}\u0000${node.name}`;
}

const nodeOf = (k: Keyed): NodeRecord => k.node;

export interface Keyed {
  key: string;
  node: NodeRecord;
}
export const keyed = (node: NodeRecord): Keyed => ({ key: listingKey(node), node });
/** By listing key; the id breaks a tie (two live children never share a name, but the order must not depend on luck). */
export const byKey = (a: Keyed, b: Keyed): number =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : a.node.id < b.node.id ? -1 : a.node.id > b.node.id ? 1 : 0;

/** `nodes` in listing order, sorted at once (for the few members of one container). */
export const inListingOrder = (nodes: readonly NodeRecord[]): NodeRecord[] => nodes.map(keyed).sort(byKey).map(nodeOf);

/**
 * The live children of a container as they were at one moment (records are replaced, never changed
 * in place, so an array of them is the container as it was), put in listing order only as far as a
 * reader needs: a page asked for before the whole order is known is chosen by one linear pass (a
 * selection of the members of its ranks) and sorted alone, so the first bytes of a listing of a
 * container never listed before wait for that pass, not for the whole sort; the rest is sorted in
 * slices (turns of the event loop between them) when a reader goes on past that page.
 */
export class ChildListing {
  /** The members in the order they were read (the tree's order of the child set). */
  readonly unordered: readonly NodeRecord[];
  #ordered: readonly NodeRecord[] | undefined;
  #ordering: Promise<readonly NodeRecord[]> | undefined;
  /** The members with their keys, rearranged by selections (undefined once the whole order is known). */
  #work: Keyed[] | undefined;
  /** The ranks of #work already in place and sorted: everything before is smaller, everything after larger. */
  #placed: { from: number; to: number } | undefined;
  #digest: string | undefined;

  /** `order`: the members in listing order, when the caller knows it (an earlier listing brought up to date). */
  constructor(unordered: readonly NodeRecord[], order?: readonly NodeRecord[], digest?: string) {
    this.unordered = unordered;
    this.#digest = digest;
    if (order) this.#ordered = order;
    else if (unordered.length <= CHILD_PAGE) this.#ordered = inListingOrder(unordered);
  }

  /** Members already in listing order (a snapshot a caller must not change): the tag listings'. */
  static inOrder(members: readonly NodeRecord[]): ChildListing {
    return new ChildListing(members, members);
  }

  get length(): number {
    return this.unordered.length;
  }

  /** The whole order, when known without more work. */
  get orderedNow(): readonly NodeRecord[] | undefined {
    return this.#ordered;
  }

  /**
   * A digest of every member's kind, id and name in the order they were read: all the listing order
   * depends on, so two listings with the same digest list the same members in the same order. Made
   * once per listing.
   */
  get digest(): string {
    if (this.#digest === undefined) {
      const hash = createHash('sha1');
      // A page's kinds, ids and names each joined into one string: no string made per member.
      for (let i = 0; i < this.unordered.length; i += CHILD_PAGE) {
        const part = this.unordered.slice(i, i + CHILD_PAGE);
        hash.update(`${part.map((n) => n.kind[0]).join('')}\n`);
        hash.update(`${part.map((n) => n.id).join('\n')}\n`);
        hash.update(`${part.map((n) => n.name).join('\n')}\n`);
      }
      this.#digest = hash.digest('base64url');
    }
    return this.#digest;
  }

  /**
   * The members of ranks `from` to `to` in listing order. Before the whole order is known (and while
   * no sort of it is under way) they are selected in linear time and sorted alone; otherwise they
   * are read from the whole order, sorted first if need be.
   */
  async range(from: number, to: number): Promise<readonly NodeRecord[]> {
    from = Math.max(0, Math.min(from, this.length));
    to = Math.max(from, Math.min(to, this.length));
    if (this.#ordered) return this.#ordered.slice(from, to);
    const placed = this.#placed;
    if (placed && placed.from <= from && to <= placed.to) return this.#work!.slice(from, to).map(nodeOf);
    if (this.#ordering || to - from > this.length / 4) return (await this.ordered()).slice(from, to);
    const work = (this.#work ??= this.unordered.map(keyed));
    if (from > 0) select(work, 0, work.length, from);
    if (to < work.length) select(work, from, work.length, to);
    const run = work.slice(from, to).sort(byKey);
    for (let k = 0; k < run.length; k++) work[from + k] = run[k]!;
    this.#placed = { from, to };
    return run.map(nodeOf);
  }

  /**
   * The members of ranks `from` to `to`, a page of at most CHILD_PAGE at a time with a turn of the
   * event loop between pages: the first page as soon as it is chosen (see range), the next ones once
   * the whole order is made. The failpoint `listing-page-read` marks each page, so a test can make a
   * listing fail after its first bytes are out.
   */
  async *pages(from = 0, to = this.length): AsyncGenerator<readonly NodeRecord[]> {
    const first = Math.max(0, from);
    const last = Math.min(to, this.length);
    for (let i = first; i < last; i += CHILD_PAGE) {
      if (i > first) await nextTurn();
      failpoint('listing-page-read');
      const end = Math.min(last, i + CHILD_PAGE);
      yield i === first ? await this.range(i, end) : (await this.ordered()).slice(i, end);
    }
  }

  /** The whole order; the first reader's call sorts what no selection placed, in slices. */
  ordered(): Promise<readonly NodeRecord[]> {
    if (this.#ordered) return Promise.resolve(this.#ordered);
    this.#ordering ??= this.#sort();
    return this.#ordering;
  }

  async #sort(): Promise<readonly NodeRecord[]> {
    const work = this.#work ?? this.unordered.map(keyed);
    const { from, to } = this.#placed ?? { from: 0, to: 0 };
    // The parts on either side of the placed ranks hold only smaller and only larger keys: each is sorted alone.
    const before = await sortedInSlices(work.slice(0, from));
    const after = await sortedInSlices(work.slice(to));
    const order = [...before, ...work.slice(from, to), ...after].map(nodeOf);
    this.#ordered = order;
    this.#work = undefined;
    this.#placed = undefined;
    return order;
  }
}

/**
 * Rearranges `a[lo..hi)` so that the member of rank `k` (from 0 at `a[0]`) is at `a[k]`, every smaller
 * one before it and every larger one after: quickselect with a random pivot, linear in the length on
 * average. Past the rounds that bound it would take with fair pivots, it sorts what is left instead
 * (so no input makes it quadratic).
 */
function select(a: Keyed[], lo: number, hi: number, k: number): void {
  let rounds = 2 * Math.ceil(Math.log2(hi - lo + 1)) + 8;
  while (hi - lo > 1) {
    if (rounds-- === 0) {
      const run = a.slice(lo, hi).sort(byKey);
      for (let i = 0; i < run.length; i++) a[lo + i] = run[i]!;
      return;
    }
    const pivot = a[lo + Math.floor(Math.random() * (hi - lo))]!;
    // Three ways: smaller than the pivot, equal to it (the pivot itself: keys with ids are unique), larger.
    let lt = lo;
    let gt = hi;
    for (let i = lo; i < gt; ) {
      const c = byKey(a[i]!, pivot);
      if (c < 0) swap(a, i++, lt++);
      else if (c > 0) swap(a, i, --gt);
      else i++;
    }
    if (k < lt) hi = lt;
    else if (k >= gt) lo = gt;
    else return;
  }
}

function swap(a: Keyed[], i: number, j: number): void {
  const t = a[i]!;
  a[i] = a[j]!;
  a[j] = t;
}

/**
 * A bottom-up merge sort by listing key that yields a turn of the event loop every CHILD_PAGE
 * members sorted or merged, so a long sort holds no other client back for long.
 */
async function sortedInSlices(members: Keyed[]): Promise<Keyed[]> {
  let from = members;
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
        to[k] = j >= hi || (i < mid && byKey(from[i]!, from[j]!) <= 0) ? from[i++]! : from[j++]!;
        if (++work % CHILD_PAGE === 0) await nextTurn();
      }
    }
    [from, to] = [to, from];
  }
  return from;
}
