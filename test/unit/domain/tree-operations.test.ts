import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetStore } from '../../helpers/stores.js';
import type { StateBuilder } from '../../../src/domain/state-builder.js';
import { blobFiles, openTestStore, STORE_KINDS, type TestStore } from '../../helpers/stores.js';

/** alice's tree: `build` below her root, swapped in as one state. */
async function seed(t: TestStore, build: (state: StateBuilder, rootId: string) => void): Promise<void> {
  await resetStore(t.store, { users: ['alice'], tree: (state, user) => build(state, state.root(user).id) });
}

describe.each(STORE_KINDS)('tree operations are iterative, one transaction each, and fair (%s store)', (kind) => {
  let t: TestStore;
  beforeEach(async () => {
    t = await openTestStore(kind);
  });
  afterEach(async () => {
    await t.dispose();
  });

  it('copies, recycles and purges a 12,000-deep chain of containers', async () => {
    const DEPTH = 12_000;
    await seed(t, (state, rootId) => {
      let parent = rootId;
      for (let i = 0; i < DEPTH; i++) parent = state.addContainer('alice', parent, `c${i}`).id;
      state.addFile('alice', parent, { name: 'bottom.txt' }, Buffer.from('deep'));
    });
    const root = t.store.root('alice').id;
    const top = t.store.resolvePath('alice', ['c0'])!;
    expect(t.store.storedBytes('alice')).toBe(4);

    const copy = await t.store.copy('alice', top.id, root, 'copy');
    const copied = t.store.tree.subtree(copy.id);
    expect(copied).toHaveLength(DEPTH + 1);
    expect(copied[DEPTH]).toMatchObject({ name: 'bottom.txt', bytes: 4 });
    expect(t.store.tree.pathNames(copied[DEPTH]!.id)).toHaveLength(DEPTH + 1);
    expect(t.store.storedBytes('alice')).toBe(8);

    await t.store.recycleBin.add('alice', copy.id);
    expect(t.store.storedBytes('alice')).toBe(4);
    await t.store.recycleBin.purge('alice', copy.id);
    await t.store.recycleBin.purge('alice', top.id, true);
    expect(t.store.tree.children(root)).toEqual([]);
    expect(t.store.tree.node(copied[DEPTH]!.id)).toBeUndefined();
    expect(await blobFiles(t.store)).toEqual([]);
    if (kind === 'file') expect((await t.reopen()).tree.children(root)).toEqual([]);
  });

  it('serves other clients while a 5,000-node COPY is prepared: a write and a read started after it finish first', async () => {
    await seed(t, (state, rootId) => {
      const tree = state.addContainer('alice', rootId, 'tree');
      for (let i = 0; i < 50; i++) {
        const dir = state.addContainer('alice', tree.id, `d${i}`);
        for (let j = 0; j < 100; j++) state.addFile('alice', dir.id, { name: `f${j}` });
      }
      state.addContainer('alice', rootId, 'elsewhere');
    });
    const root = t.store.root('alice').id;
    const source = t.store.resolvePath('alice', ['tree'])!;
    const elsewhere = t.store.resolvePath('alice', ['elsewhere'])!;
    const finished: string[] = [];
    const copying = t.store.copy('alice', source.id, root, 'tree copy').then(() => finished.push('copy'));
    const writing = t.store.createContainer('alice', elsewhere.id, 'made meanwhile').then(() => finished.push('write'));
    const reading = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      expect(t.store.tree.children(source.id)).toHaveLength(50);
      finished.push('read');
    });
    await Promise.all([copying, writing, reading]);
    expect(finished.indexOf('copy')).toBe(2);
    expect(t.store.tree.subtree(t.store.resolvePath('alice', ['tree copy'])!.id)).toHaveLength(5051);
  });

  it('a COPY whose source changes while it is prepared copies the source as it is at commit', async () => {
    await seed(t, (state, rootId) => {
      const tree = state.addContainer('alice', rootId, 'tree');
      for (let i = 0; i < 3000; i++) state.addFile('alice', tree.id, { name: `f${i}` });
    });
    const root = t.store.root('alice').id;
    const source = t.store.resolvePath('alice', ['tree'])!;
    const copying = t.store.copy('alice', source.id, root, 'copy');
    await t.store.createContainer('alice', source.id, 'late');
    const copy = await copying;
    expect(t.store.tree.children(copy.id)).toHaveLength(3001);
  });
});
