import { describe, expect, it } from 'vitest';
import { newNode } from '../../../src/domain/node-records.js';
import { Tree } from '../../../src/domain/tree.js';
import { ChildListing } from '../../../src/domain/child-listing.js';
import { Listings } from '../../../src/domain/listings.js';
import { StoreCache } from '../../../src/storage/store-cache.js';
import type { NodeRecord } from '../../../src/storage/schema.js';

/** Names whose order ignoring case differs from their code-unit order, prefixes of each other, and non-ASCII. */
const NAMES = [
  'b',
  'B',
  'a',
  'A-b',
  'a b',
  'ab',
  'AB.txt',
  'Zeta',
  'zeta!',
  'émile',
  'Émile',
  'ß',
  '10',
  '9',
  '_x',
  '😀',
];

/** A root with `count` members: files named from NAMES and a running number, every tenth a folder. */
function wide(count: number): { tree: Tree; rootId: string } {
  const root = newNode('alice', 'container', '/', null, 1);
  const nodes: NodeRecord[] = [root];
  for (let i = 0; i < count; i++) {
    const name = `${NAMES[i % NAMES.length]!}${Math.floor(i / NAMES.length)}`;
    nodes.push(newNode('alice', i % 10 === 0 ? 'container' : 'file', name, root.id, 1));
  }
  const tree = new Tree();
  tree.apply({ users: [{ login: 'alice', user: { rootId: root.id } }], nodes });
  return { tree, rootId: root.id };
}

const ids = (nodes: readonly NodeRecord[]): string[] => nodes.map((n) => n.id);

/** The listing order written out on its own, as the reference the listings are checked against. */
function referenceOrder(nodes: readonly NodeRecord[]): NodeRecord[] {
  const rank = (n: NodeRecord): [number, string, string] => [
    n.kind === 'container' ? 0 : 1,
    n.name.toLowerCase(),
    n.name,
  ];
  return [...nodes].sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    for (let i = 0; i < 3; i++) if (x[i]! !== y[i]!) return x[i]! < y[i]! ? -1 : 1;
    return 0;
  });
}

/** A small seeded generator (mulberry32): the same runs every time. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A root with `count` members named in a shuffled order (so the child set is far from listing order). */
function shuffled(count: number, seed: number): { tree: Tree; rootId: string } {
  const random = seeded(seed);
  const root = newNode('alice', 'container', '/', null, 1);
  const names = Array.from({ length: count }, (_, i) => `${NAMES[i % NAMES.length]!}${Math.floor(i / NAMES.length)}`);
  for (let i = names.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [names[i], names[j]] = [names[j]!, names[i]!];
  }
  const nodes = [
    root,
    ...names.map((name, i) => newNode('alice', i % 10 === 0 ? 'container' : 'file', name, root.id, 1)),
  ];
  const tree = new Tree();
  tree.apply({ users: [{ login: 'alice', user: { rootId: root.id } }], nodes });
  return { tree, rootId: root.id };
}

/** The listings of a tree, one per tree as its store keeps them. */
const kept = new WeakMap<Tree, Listings>();
function listings(tree: Tree): Listings {
  let made = kept.get(tree);
  if (!made) kept.set(tree, (made = new Listings(tree, new StoreCache().shelf('listing'))));
  return made;
}

async function pagesFlat(listing: ChildListing, from: number, to: number): Promise<NodeRecord[]> {
  const out: NodeRecord[] = [];
  for await (const page of listing.pages(from, to)) out.push(...page);
  return out;
}

describe('child snapshots (listings of big containers)', () => {
  it('list the live children in the tree’s own order (containers first, then by name ignoring case), small and big', async () => {
    for (const count of [0, 40, 5_000]) {
      const { tree, rootId } = wide(count);
      expect(ids(await listings(tree).of(rootId).ordered())).toEqual(ids(tree.children(rootId)));
      expect(listings(tree).count(rootId)).toBe(count);
    }
  });

  it('a never-listed container read page by page is in listing order across every page boundary, equal to a sorted reference', async () => {
    const { tree, rootId } = shuffled(20_000, 7);
    const listing = listings(tree).of(rootId);
    expect(listing.orderedNow).toBeUndefined();
    const reference = ids(referenceOrder(listing.unordered));
    expect(ids(await pagesFlat(listing, 0, listing.length))).toEqual(reference);
    expect(ids(await listing.ordered())).toEqual(reference);
    expect(ids(tree.children(rootId))).toEqual(reference);
  });

  it('any range of a never-listed container is chosen without the whole order and equals the reference; the whole order after it too', async () => {
    const random = seeded(11);
    for (let round = 0; round < 12; round++) {
      const { tree, rootId } = shuffled(9_000, round);
      const listing = listings(tree).of(rootId);
      const reference = ids(referenceOrder(listing.unordered));
      const from = Math.floor(random() * 9_500);
      const to = from + 1 + Math.floor(random() * 2_000);
      expect(ids(await listing.range(from, to))).toEqual(reference.slice(from, to));
      expect(listing.orderedNow).toBeUndefined();
      // A range inside the one placed is read from it; the next pages come from the whole order.
      expect(ids(await listing.range(from + 1, to - 1))).toEqual(reference.slice(from + 1, to - 1));
      expect(ids(await pagesFlat(listing, from, 9_000))).toEqual(reference.slice(from));
      expect(ids(await listing.ordered())).toEqual(reference);
    }
  });

  it('members that tie on name (not made by the API, but possible in a hand-made state) come out in one order: by id', async () => {
    const root = newNode('alice', 'container', '/', null, 1);
    const same = Array.from({ length: 6_000 }, (_, i) =>
      newNode('alice', 'file', i % 3 ? 'same' : `other${i}`, root.id, 1),
    );
    const reference = ids(
      [...same].sort((a, b) => (a.name !== b.name ? (a.name < b.name ? -1 : 1) : a.id < b.id ? -1 : 1)),
    );
    const listing = new ChildListing(same);
    expect(ids(await listing.range(100, 1_500))).toEqual(reference.slice(100, 1_500));
    expect(ids(await listing.ordered())).toEqual(reference);
  });

  it('the digest follows the members: the same for an unchanged container whatever else changed, new after a rename', async () => {
    const { tree, rootId } = shuffled(3_000, 3);
    const first = listings(tree).of(rootId);
    const digest = first.digest;
    const other = newNode('alice', 'container', 'elsewhere', null, 1);
    tree.apply({ nodes: [other] });
    const again = listings(tree).of(rootId);
    expect(again).not.toBe(first);
    expect(again.digest).toBe(digest);
    expect(new ChildListing([...first.unordered]).digest).toBe(digest);
    const file = first.unordered.find((n) => n.kind === 'file')!;
    tree.apply({ nodes: [{ ...file, name: 'renamed' }] });
    expect(listings(tree).of(rootId).digest).not.toBe(digest);
  });

  it('after a seeded random run of adds, renames, removes, recycles and restores, every listing is in the order of a full sort', async () => {
    const random = seeded(42);
    const { tree, rootId } = shuffled(3_000, 5);
    const pick = (): NodeRecord => {
      const all = [...tree.childIds(rootId)];
      return tree.node(all[Math.floor(random() * all.length)]!)!;
    };
    for (let step = 0; step < 60; step++) {
      if (step % 3 === 0) await listings(tree).of(rootId).ordered(); // kept, then brought up to date
      for (let k = 0; k < 1 + Math.floor(random() * 8); k++) {
        const op = Math.floor(random() * 5);
        const n = pick();
        const name = `${NAMES[Math.floor(random() * NAMES.length)]!}-${step}-${k}`;
        if (op === 0) tree.apply({ nodes: [newNode('alice', random() < 0.2 ? 'container' : 'file', name, rootId, 2)] });
        else if (op === 1 && n.recycled === null) tree.apply({ nodes: [{ ...n, name }] });
        else if (op === 2) tree.apply({ removed: [n.id] });
        else if (op === 3) tree.apply({ nodes: [{ ...n, recycled: n.recycled === null ? 9 : null }] });
        else tree.apply({ nodes: [{ ...n, accessed: n.accessed + 1 }] });
      }
      const listing = listings(tree).of(rootId);
      const reference = ids(referenceOrder(tree.children(rootId)));
      expect(ids(await pagesFlat(listing, 0, listing.length))).toEqual(reference);
      expect(listings(tree).count(rootId)).toBe(reference.length);
    }
  });

  it('a snapshot taken stays as it was while the tree changes; the next one follows every change in order', async () => {
    const { tree, rootId } = wide(3_000);
    const before = await listings(tree).of(rootId).ordered();
    const copy = [...before];
    const [first, second, third] = tree.children(rootId).filter((n) => n.kind === 'file');
    tree.apply({
      nodes: [
        { ...first!, name: 'zzz-renamed' },
        { ...second!, recycled: 5 },
        { ...third!, accessed: 99 },
        newNode('alice', 'file', 'AAA-new', rootId, 2),
        newNode('alice', 'container', 'new folder', rootId, 2),
      ],
    });
    expect(before).toEqual(copy);
    const snapshot = listings(tree).of(rootId);
    const after = await snapshot.ordered();
    expect(ids(after)).toEqual(ids(tree.children(rootId)));
    expect(after.find((n) => n.id === third!.id)!.accessed).toBe(99);
    expect(after).toHaveLength(3_001);
    // Unchanged tree: the same snapshot again, not a new one.
    expect(listings(tree).of(rootId)).toBe(snapshot);
  });

  it('when most members change the snapshot is made afresh, still in order', async () => {
    const { tree, rootId } = wide(2_000);
    await listings(tree).of(rootId).ordered();
    const renamed = tree.children(rootId).map((n, i) => ({ ...n, name: `${i % 2 ? 'x' : 'X'}${2000 - i}` }));
    tree.apply({ nodes: renamed });
    expect(ids(await listings(tree).of(rootId).ordered())).toEqual(ids(tree.children(rootId)));
  });

  it('changes committed while a big snapshot is being ordered do not show in it, and never make a member show twice', async () => {
    for (const listedBefore of [false, true]) {
      const { tree, rootId } = wide(9_000);
      if (listedBefore) await listings(tree).of(rootId).ordered();
      tree.apply({ nodes: [newNode('alice', 'file', 'touch', rootId, 2)] });
      const snapshot = listings(tree).of(rootId);
      const reference = ids(referenceOrder(snapshot.unordered));
      const first = await snapshot.range(0, 100);
      const making = snapshot.ordered();
      // Renames move a member to the end of the tree's own child set while the snapshot is ordered in slices.
      const files = tree.children(rootId).filter((n) => n.kind === 'file');
      for (let round = 0; round < 20; round++) {
        await new Promise((r) => setImmediate(r));
        const f = files[round * 7]!;
        tree.apply({ nodes: [{ ...tree.node(f.id)!, name: `renamed-${round}` }] });
      }
      const made = await making;
      expect(ids(first)).toEqual(reference.slice(0, 100));
      expect(ids(made)).toEqual(reference);
      expect(made).toHaveLength(9_001);
      expect(ids(await listings(tree).of(rootId).ordered())).toEqual(ids(tree.children(rootId)));
    }
  });

  it('pages cover the asked range once, in order', async () => {
    const { tree, rootId } = wide(4_500);
    const members = listings(tree).of(rootId);
    const all = await members.ordered();
    expect(ids(await pagesFlat(members, 10, 4_400))).toEqual(ids(all.slice(10, 4_400)));
    expect(await pagesFlat(members, 5_000, 6_000)).toEqual([]);
  });
});
