import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import type { SeedPlan } from '../../../src/mock-state.js';
import { StorageError } from '../../../src/storage/persistence.js';
import {
  blobFiles,
  contentOf,
  openTestStore,
  resetStore,
  slowStream,
  STORE_KINDS,
  type TestStore,
} from '../../helpers/stores.js';

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

const lockRequest = { scope: 'exclusive', depth: '0', ownerXml: '', timeout: 600 } as const;

describe.each(STORE_KINDS)('every change is a transaction (%s store)', (kind) => {
  let t: TestStore;
  beforeEach(async () => {
    t = await openTestStore(kind);
  });
  afterEach(async () => {
    await t.dispose();
  });

  it('a change the durable layer refuses is kept nowhere: not in memory, not on disk, its blob dropped', async () => {
    const root = t.store.root('alice').id;
    const kept = await t.store.createFile('alice', root, { name: 'kept' }, Buffer.from('old'));
    const blobsBefore = await blobFiles(t.store);
    t.faults.failing = 'full';
    expect(await outcome(t.store.createFile('alice', root, { name: 'refused' }, Buffer.from('new')))).toBe(
      'storage-full',
    );
    expect(await outcome(t.store.createContainer('alice', root, 'refused-dir'))).toBe('storage-full');
    expect(await outcome(t.store.writeContent('alice', kept.id, Buffer.from('replaced')))).toBe('storage-full');
    expect(await outcome(t.store.update('alice', kept.id, { name: 'renamed' }))).toBe('storage-full');
    expect(await outcome(t.store.recycleBin.add('alice', kept.id))).toBe('storage-full');
    expect(await outcome(t.store.annotations.setMetadata('alice', kept.id, 'k', 'v'))).toBe('storage-full');
    expect(await outcome(t.store.copy('alice', kept.id, root, 'copy'))).toBe('storage-full');

    expect(t.store.tree.children(root).map((n) => n.name)).toEqual(['kept']);
    expect(t.store.get('alice', kept.id)).toMatchObject({ name: 'kept', version: 1, bytes: 3 });
    expect(Object.keys(t.store.get('alice', kept.id).metadata)).toEqual([]);
    expect((await contentOf(t.store, t.store.get('alice', kept.id).blobId)).toString()).toBe('old');
    expect(await blobFiles(t.store)).toEqual(blobsBefore);

    t.faults.failing = undefined;
    await t.store.createContainer('alice', root, 'after');
    if (kind === 'file') {
      const again = await t.reopen();
      expect(again.tree.children(again.root('alice').id).map((n) => n.name)).toEqual(['after', 'kept']);
    }
  });

  it('two concurrent block writes to different halves of one file both land (10 runs)', async () => {
    const root = t.store.root('alice').id;
    for (let run = 0; run < 10; run++) {
      const f = await t.store.createFile('alice', root, { name: `f${run}` }, Buffer.alloc(2000, '.'));
      const half = (c: string) => slowStream([Buffer.alloc(500, c), Buffer.alloc(500, c)], 3);
      await Promise.all([
        t.store.writeContent('alice', f.id, half('a'), 0),
        t.store.writeContent('alice', f.id, half('b'), 1000),
      ]);
      const body = (await contentOf(t.store, t.store.get('alice', f.id).blobId)).toString();
      expect(body).toBe('a'.repeat(1000) + 'b'.repeat(1000));
      expect(t.store.get('alice', f.id).version).toBe(3);
    }
  });

  it('a lock taken while an upload streams is seen at commit: 423, the upload discarded', async () => {
    const root = t.store.root('alice').id;
    const f = await t.store.createFile('alice', root, { name: 'f' }, Buffer.from('original'));
    const blobsBefore = await blobFiles(t.store);
    const write = outcome(
      t.store.writeContent('alice', f.id, slowStream([Buffer.alloc(500, 'x'), Buffer.alloc(500, 'x')], 20)),
    );
    const create = outcome(
      t.store.createFile(
        'alice',
        root,
        { name: 'new' },
        slowStream([Buffer.alloc(500, 'y'), Buffer.alloc(500, 'y')], 20),
      ),
    );
    await t.store.lock('alice', { nodeId: f.id }, { ...lockRequest, scope: 'shared' });
    await t.store.lock('alice', { nodeId: root }, { ...lockRequest, depth: 'infinity', scope: 'shared' });
    expect(await write).toBe('locked');
    expect(await create).toBe('locked');
    expect((await contentOf(t.store, t.store.get('alice', f.id).blobId)).toString()).toBe('original');
    expect(t.store.tree.children(root).map((n) => n.name)).toEqual(['f']);
    expect(await blobFiles(t.store)).toEqual(blobsBefore);
  });

  it("another user's locked object is not found (404), never locked (423)", async () => {
    const f = await t.store.createFile('alice', t.store.root('alice').id, { name: 'f' });
    await t.store.lock('alice', { nodeId: f.id }, lockRequest);
    expect(await outcome(t.store.writeContent('bob', f.id, Buffer.from('x')))).toBe('not-found');
    expect(await outcome(t.store.recycleBin.add('bob', f.id))).toBe('not-found');
    expect(await outcome(t.store.annotations.addTag('bob', f.id, 't'))).toBe('not-found');
    expect(await outcome(t.store.writeContent('alice', f.id, Buffer.from('x')))).toBe('locked');
  });

  it('a refused LOCK on an unmapped name leaves no file behind', async () => {
    const root = t.store.root('alice').id;
    const dir = await t.store.createContainer('alice', root, 'dir');
    const held = await t.store.lock('alice', { nodeId: dir.id }, { ...lockRequest, depth: 'infinity' });
    const tokens = new Set([held.lock.token]);
    expect(await outcome(t.store.lock('alice', { parentId: dir.id, name: 'new.txt' }, lockRequest, { tokens }))).toBe(
      'locked',
    );
    expect(t.store.tree.children(dir.id)).toEqual([]);
    const granted = await t.store.lock('alice', { parentId: root, name: 'free.txt' }, lockRequest);
    expect(granted.created).toBe(true);
    expect(t.store.locks.covering(t.store.resolvePath('alice', ['free.txt'])!.id)).toEqual([granted.lock]);
  });

  it('a refused reset (a bad seed name) changes nothing: users, nodes and blobs stay', async () => {
    const f = await t.store.createFile('alice', t.store.root('alice').id, { name: 'f' }, Buffer.from('data'));
    const blobsBefore = await blobFiles(t.store);
    for (const bad of ['x'.repeat(256), 'back\\slash']) {
      const plan: SeedPlan = {
        users: ['alice', 'carol'],
        tree: (state, user) => void state.addFile(user, state.root(user).id, { name: bad }, Buffer.from('seed')),
      };
      expect(await outcome(resetStore(t.store, plan))).toBe('invalid');
    }
    const badTag: SeedPlan = {
      users: ['alice'],
      tree: (state, user) => void state.addFile(user, state.root(user).id, { name: 'ok', tags: ['a/b'] }),
    };
    expect(await outcome(resetStore(t.store, badTag))).toBe('invalid');
    t.faults.failing = 'io';
    expect(await outcome(resetStore(t.store, { users: ['carol'] }))).toBe('storage-io');
    t.faults.failing = undefined;
    expect(t.store.tree.users().sort()).toEqual(['alice', 'bob']);
    expect(t.store.get('alice', f.id).name).toBe('f');
    expect(await blobFiles(t.store)).toEqual(blobsBefore);
    if (kind === 'file') expect((await t.reopen()).get('alice', f.id).name).toBe('f');
  });

  it('a read marks the access time in memory, never in a committed record, and the next change keeps it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const root = t.store.root('alice').id;
      const f = await t.store.createFile('alice', root, { name: 'f' }, Buffer.from('x'));
      const committed = f.accessed;
      vi.setSystemTime(Date.now() + 60_000);
      t.store.touchAccessed(f);
      expect(f.accessed, 'the record the change set held is unchanged').toBe(committed);
      const read = t.store.get('alice', f.id).accessed;
      expect(read).toBeGreaterThanOrEqual(committed + 60);
      await t.store.annotations.setMetadata('alice', f.id, 'k', 'v');
      if (kind === 'file') expect((await t.reopen()).get('alice', f.id).accessed).toBe(read);
    } finally {
      vi.useRealTimers();
    }
  });
});
