import { describe, expect, it, vi } from 'vitest';
import { newNode } from '../../../src/domain/node-records.js';
import { Tree } from '../../../src/domain/tree.js';
import type { NodeRecord } from '../../../src/storage/schema.js';

/** root / d0..d99 / f0..f99: 10,101 nodes. */
function wideTree(): { tree: Tree; rootId: string } {
  const root = newNode('alice', 'container', '/', null, 1);
  const nodes: NodeRecord[] = [root];
  for (let d = 0; d < 100; d++) {
    const dir = newNode('alice', 'container', `d${d}`, root.id, 1);
    nodes.push(dir);
    for (let f = 0; f < 100; f++) nodes.push(newNode('alice', 'file', `f${f}`, dir.id, 1));
  }
  const tree = new Tree();
  tree.apply({ users: [{ login: 'alice', user: { rootId: root.id } }], nodes });
  return { tree, rootId: root.id };
}

describe('tree queries', () => {
  it('a bounded subtree (PROPFIND Depth: infinity) stops reading soon past the bound', () => {
    const { tree, rootId } = wideTree();
    expect(tree.subtree(rootId)).toHaveLength(10_101);
    const children = vi.spyOn(tree, 'children');
    const bounded = tree.subtree(rootId, 150);
    expect(bounded.length).toBeGreaterThan(150);
    expect(bounded.length, 'at most one container more than the bound').toBeLessThanOrEqual(150 + 100);
    expect(children.mock.calls.length, 'children lists read').toBeLessThanOrEqual(3);
  });

  it('undoes an applied change exactly, newest first', () => {
    const { tree, rootId } = wideTree();
    const before = tree.toState();
    const d0 = tree.childNamed(rootId, 'd0')!;
    const moved = { ...tree.childNamed(d0.id, 'f0')!, parentId: rootId, name: 'moved', bytes: 5 };
    const created = newNode('bob', 'container', '/', null, 2);
    const first = tree.apply({ nodes: [moved] });
    const second = tree.apply({
      users: [{ login: 'bob', user: { rootId: created.id } }],
      nodes: [created],
      removed: [tree.childNamed(rootId, 'd1')!.id, ...tree.childIds(tree.childNamed(rootId, 'd1')!.id)],
    });
    expect(tree.subtreeBytes(rootId)).toBe(5);
    tree.revert(second);
    tree.revert(first);
    expect(tree.toState()).toEqual(before);
    expect(tree.users()).toEqual(['alice']);
    expect(tree.childNamed(rootId, 'moved')).toBeUndefined();
    expect(tree.children(tree.childNamed(rootId, 'd1')!.id)).toHaveLength(100);
    expect(tree.subtreeBytes(rootId)).toBe(0);
  });
});
