import { describe, expect, it } from 'vitest';
import { newNode } from '../../../src/domain/node-records.js';
import { Tree } from '../../../src/domain/tree.js';
import { childSnapshot, liveChildCount, pagesOf } from '../../../src/domain/tree-queries.js';
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

describe('child snapshots (listings of big containers)', () => {
  it('list the live children in the tree’s own order (containers first, then by name ignoring case), small and big', async () => {
    for (const count of [0, 40, 5_000]) {
      const { tree, rootId } = wide(count);
      expect(ids(await childSnapshot(tree, rootId))).toEqual(ids(tree.children(rootId)));
      expect(liveChildCount(tree, rootId)).toBe(count);
    }
  });

  it('a snapshot taken stays as it was while the tree changes; the next one follows every change in order', async () => {
    const { tree, rootId } = wide(3_000);
    const before = await childSnapshot(tree, rootId);
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
    const after = await childSnapshot(tree, rootId);
    expect(ids(after)).toEqual(ids(tree.children(rootId)));
    expect(after.find((n) => n.id === third!.id)!.accessed).toBe(99);
    expect(after).toHaveLength(3_001);
    // Unchanged tree: the same snapshot again, not a new one.
    expect(await childSnapshot(tree, rootId)).toBe(after);
  });

  it('when most members change the snapshot is made afresh, still in order', async () => {
    const { tree, rootId } = wide(2_000);
    await childSnapshot(tree, rootId);
    const renamed = tree.children(rootId).map((n, i) => ({ ...n, name: `${i % 2 ? 'x' : 'X'}${2000 - i}` }));
    tree.apply({ nodes: renamed });
    expect(ids(await childSnapshot(tree, rootId))).toEqual(ids(tree.children(rootId)));
  });

  it('a change committed while a big snapshot is being made shows or not, but never makes a member show twice', async () => {
    for (const listedBefore of [false, true]) {
      const { tree, rootId } = wide(9_000);
      if (listedBefore) await childSnapshot(tree, rootId);
      tree.apply({ nodes: [newNode('alice', 'file', 'touch', rootId, 2)] });
      const making = childSnapshot(tree, rootId);
      // Renames move a member to the end of the tree's own child set while the snapshot reads it in pages.
      const files = tree.children(rootId).filter((n) => n.kind === 'file');
      for (let round = 0; round < 20; round++) {
        await new Promise((r) => setImmediate(r));
        const f = files[round * 7]!;
        tree.apply({ nodes: [{ ...tree.node(f.id)!, name: `renamed-${round}` }] });
      }
      const made = await making;
      expect(new Set(ids(made)).size).toBe(made.length);
      expect(made).toHaveLength(9_001);
      expect(ids(await childSnapshot(tree, rootId))).toEqual(ids(tree.children(rootId)));
    }
  });

  it('pages cover the asked range once, in order', async () => {
    const { tree, rootId } = wide(4_500);
    const members = await childSnapshot(tree, rootId);
    const paged = [...pagesOf(members, 10, 4_400)].flat();
    expect(ids(paged)).toEqual(ids(members.slice(10, 4_400)));
    expect([...pagesOf(members, 5_000, 6_000)]).toEqual([]);
  });
});
