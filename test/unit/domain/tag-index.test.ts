import { describe, expect, it } from 'vitest';
import { nodeRecord } from '../../helpers/node-record.js';
import { Tree } from '../../../src/domain/tree.js';
import type { NodeRecord, StateData } from '../../../src/domain/model.js';
import { openTestStore } from '../../helpers/stores.js';

const record = (id: string, parentId: string | null, tags: string[] = []): NodeRecord =>
  nodeRecord({ id, kind: parentId ? 'file' : 'container', owner: 'alice', parentId, tags });

function treeWithTags(count: number): { tree: Tree; file: NodeRecord } {
  const tags = Array.from({ length: count }, (_, i) => `t${i}`);
  const state: StateData = {
    schema: 1,
    users: { alice: { rootId: 'root' } },
    nodes: { root: record('root', null), f: record('f', 'root', tags) },
  };
  const tree = new Tree(state);
  return { tree, file: tree.node('f')! };
}

/** Each tag's set of ids in the index, by identity. */
const sets = (tree: Tree): Map<string, ReadonlySet<string>> => new Map(tree.tags.of('alice'));

describe('the tag index: adding a tag costs the same however many tags the object has', () => {
  it('adding a tag to an object with 2,000 tags touches one entry of the index; the other tags keep their sets', () => {
    const { tree, file } = treeWithTags(2000);
    const before = sets(tree);
    tree.apply({ nodes: [{ ...file, tags: [...file.tags, 'new'] }] });
    const after = sets(tree);
    expect(after.size).toBe(2001);
    for (const [tag, ids] of before) expect(after.get(tag), tag).toBe(ids);
    expect([...after.get('new')!]).toEqual(['f']);
    expect(tree.tags.has('alice', 'new', 'f')).toBe(true);
  });

  it('a change that leaves the tags alone (a rename) does not touch the index', () => {
    const { tree, file } = treeWithTags(500);
    const before = sets(tree);
    tree.apply({ nodes: [{ ...file, name: 'renamed' }] });
    const after = sets(tree);
    expect(after.size).toBe(500);
    for (const [tag, ids] of before) expect(after.get(tag)).toBe(ids);
  });

  it('removing one tag drops only its entry; undoing the change gives it back', () => {
    const { tree, file } = treeWithTags(500);
    const before = sets(tree);
    const undo = tree.apply({ nodes: [{ ...file, tags: file.tags.filter((t) => t !== 't7') }] });
    const after = sets(tree);
    expect(after.has('t7')).toBe(false);
    for (const [tag, ids] of before) if (tag !== 't7') expect(after.get(tag)).toBe(ids);
    tree.revert(undo);
    expect(tree.tags.has('alice', 't7', 'f')).toBe(true);
    expect(sets(tree).size).toBe(500);
  });

  it('the store adds a tag once (a second add changes nothing), checked against the index', async () => {
    const t = await openTestStore('memory');
    try {
      const root = t.store.root('alice').id;
      const file = await t.store.createFile('alice', root, { name: 'f' });
      for (let i = 0; i < 300; i++) await t.store.annotations.addTag('alice', file.id, `tag${i}`);
      await t.store.annotations.addTag('alice', file.id, 'tag150');
      const once = t.store.get('alice', file.id);
      expect(once.tags).toHaveLength(300);
      expect(once.version).toBe(file.version);
      expect(t.store.annotations.taggedWith('alice', 'tag299').map((n) => n.id)).toEqual([file.id]);
    } finally {
      await t.dispose();
    }
  });
});
