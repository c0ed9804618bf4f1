import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import { newNode } from '../../../src/domain/node-records.js';
import { StoreCore } from '../../../src/domain/store-core.js';
import { BlobStore } from '../../../src/storage/blob-store.js';
import { StorageError, type StatePersistence } from '../../../src/storage/persistence.js';
import { emptyPlainState } from '../../../src/storage/state-log.js';
import { openTestStore, STORE_KINDS, type TestStore } from '../../helpers/stores.js';

const outcome = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
    return 'fulfilled';
  } catch (err) {
    if (err instanceof DomainError) return err.code;
    if (err instanceof StorageError) return `storage-${err.kind}`;
    throw err;
  }
};

const turns = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

/** A gate the durable layer waits at: commits pile up behind it as they would behind a slow fsync. */
function holdCommits(t: TestStore): () => void {
  let open!: () => void;
  t.faults.hold = new Promise<void>((resolve) => (open = resolve));
  return () => {
    t.faults.hold = undefined;
    open();
  };
}

const lockRequest = { scope: 'exclusive', depth: '0', ownerXml: '', timeout: 600 } as const;

describe.each(STORE_KINDS)('group commit (%s store)', (kind) => {
  let t: TestStore;
  beforeEach(async () => {
    t = await openTestStore(kind);
  });
  afterEach(async () => {
    await t.dispose();
  });

  it('concurrent writes share one group (one fsync), and each is answered only after it', async () => {
    const root = t.store.root('alice').id;
    t.faults.groups = [];
    const release = holdCommits(t);
    const answered: string[] = [];
    const writes = Array.from({ length: 20 }, (_, i) =>
      t.store.createContainer('alice', root, `d${i}`).then(() => answered.push(`d${i}`)),
    );
    await turns(5);
    expect(t.faults.groups, 'all twenty went to the durable layer as one group').toEqual([20]);
    expect(answered, 'nothing is answered before its group is durable').toEqual([]);
    release();
    await Promise.all(writes);
    expect(answered).toHaveLength(20);
    expect(t.faults.groups).toEqual([20]);
    if (kind === 'file') {
      const again = await t.reopen();
      expect(again.tree.children(again.root('alice').id)).toHaveLength(20);
    }
  });

  it('commits arriving during a group form the next group, validated against the pending state', async () => {
    const root = t.store.root('alice').id;
    t.faults.groups = [];
    const release = holdCommits(t);
    const folder = t.store.createContainer('alice', root, 'a');
    await turns(3);
    // The folder is staged, not durable: a later transaction sees it (a file inside, a duplicate name).
    const staged = t.store.resolvePath('alice', ['a'])!;
    const inside = t.store.createFile('alice', staged.id, { name: 'f' });
    expect(await outcome(t.store.createContainer('alice', root, 'a'))).toBe('duplicate');
    await turns(3);
    expect(t.faults.groups).toEqual([1]);
    release();
    await Promise.all([folder, inside]);
    expect(t.faults.groups).toEqual([1, 1]);
    expect(t.store.tree.children(staged.id).map((n) => n.name)).toEqual(['f']);
  });

  it('a failed group fails every transaction in it and every one staged after it; memory is as before', async () => {
    const root = t.store.root('alice').id;
    const kept = await t.store.createFile('alice', root, { name: 'kept' }, Buffer.from('x'));
    const before = t.store.snapshot();
    t.faults.groups = [];
    const release = holdCommits(t);
    const first = [
      outcome(t.store.createContainer('alice', root, 'a')),
      outcome(t.store.update('alice', kept.id, { name: 'renamed' })),
    ];
    await turns(3);
    const a = t.store.resolvePath('alice', ['a'])!;
    // Staged behind the held group, each depending on it: a file in the new folder, metadata on the
    // renamed file, a lock on it; a write without the token is refused by that pending lock.
    const second = [
      outcome(t.store.createFile('alice', a.id, { name: 'f' })),
      outcome(t.store.annotations.setMetadata('alice', kept.id, 'k', 'v')),
      outcome(t.store.lock('alice', { nodeId: kept.id }, lockRequest)),
    ];
    expect(await outcome(t.store.annotations.setMetadata('alice', kept.id, 'k2', 'v'))).toBe('locked');
    await turns(3);
    expect(t.store.snapshot(), 'a snapshot (compaction) holds only what is durable').toEqual(before);
    t.faults.failing = 'full';
    release();
    expect(await Promise.all([...first, ...second])).toEqual(Array(5).fill('storage-full'));
    expect(t.faults.groups).toEqual([2]);

    expect(t.store.tree.children(root).map((n) => n.name)).toEqual(['kept']);
    expect(t.store.resolvePath('alice', ['a'])).toBeUndefined();
    expect(t.store.get('alice', kept.id)).toMatchObject({ name: 'kept', version: 1 });
    expect(Object.keys(t.store.get('alice', kept.id).metadata)).toEqual([]);
    expect(t.store.locks.covering(kept.id), 'the lock granted in the failed group is gone').toEqual([]);
    expect(t.store.snapshot()).toEqual(before);

    t.faults.failing = undefined;
    const { lock } = await t.store.lock('alice', { nodeId: kept.id }, lockRequest);
    await t.store.createContainer('alice', root, 'a');
    expect(t.store.locks.covering(kept.id)).toEqual([lock]);
    if (kind === 'file') {
      const again = await t.reopen();
      expect(again.tree.children(again.root('alice').id).map((n) => n.name)).toEqual(['a', 'kept']);
    }
  });

  it('a move undone with its failed group gives the locks it released back', async () => {
    const root = t.store.root('alice').id;
    const dir = await t.store.createContainer('alice', root, 'dir');
    const file = await t.store.createFile('alice', dir.id, { name: 'f' });
    const { lock } = await t.store.lock('alice', { nodeId: file.id }, lockRequest);
    t.faults.failing = 'io';
    const tokens = new Set([lock.token]);
    expect(await outcome(t.store.update('alice', dir.id, { name: 'moved' }, { tokens }))).toBe('storage-io');
    expect(t.store.locks.covering(file.id)).toEqual([lock]);
    expect(t.store.get('alice', dir.id).name).toBe('dir');
  });
});

describe('group commit: a build that spans a group failure', () => {
  it('is built again against the restored state, so nothing is staged on what was undone', async () => {
    const blobs = await BlobStore.open();
    let failGroup!: (err: Error) => void;
    const persistence: StatePersistence = {
      file: undefined,
      load: async () => ({ state: emptyPlainState(), notes: [] }),
      commit: () => new Promise<void>((_resolve, reject) => (failGroup = reject)),
      replace: async () => undefined,
      close: async () => undefined,
    };
    const core = new StoreCore(emptyPlainState(), persistence, blobs, { now: () => 1000 });
    try {
      const root = newNode('alice', 'container', '/', null, 1);
      const created = core.transact(() => ({
        change: { users: [{ login: 'alice', user: { rootId: root.id } }], nodes: [root] },
        result: root,
      }));
      await turns(3);
      expect(core.tree.node(root.id), 'staged, so the next build sees it').toBeDefined();
      let builds = 0;
      const child = core.transact(async () => {
        builds++;
        const parent = core.tree.node(root.id);
        if (builds === 1) {
          failGroup(Object.assign(new Error('injected'), { code: 'ENOSPC' }));
          await turns(2);
        }
        if (!parent) throw new Error('no parent');
        return { change: { nodes: [newNode('alice', 'file', 'f', parent.id, 1)] }, result: undefined };
      });
      expect(await outcome(created)).toBe('storage-full');
      await expect(child).rejects.toThrow('no parent');
      expect(builds).toBe(2);
      expect(core.tree.size).toBe(0);
    } finally {
      await blobs.close();
    }
  });
});
