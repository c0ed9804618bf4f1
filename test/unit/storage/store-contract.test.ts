import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import { resetStore } from '../../helpers/stores.js';
import { blobFiles, contentOf, openTestStore, slowStream, STORE_KINDS, type TestStore } from '../../helpers/stores.js';

const codeOf = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
    return 'fulfilled';
  } catch (err) {
    return err instanceof DomainError ? err.code : `unexpected ${String(err)}`;
  }
};

describe.each(STORE_KINDS)('CloudStore contract (%s store)', (kind) => {
  let t: TestStore;
  beforeEach(async () => {
    t = await openTestStore(kind);
  });
  afterEach(async () => {
    await t.dispose();
  });

  it('gives every configured user a separate root container named "/" without parent', () => {
    const alice = t.store.root('alice');
    const bob = t.store.root('bob');
    expect(alice.name).toBe('/');
    expect(alice.parentId).toBeNull();
    expect(alice.id).not.toBe(bob.id);
    expect(t.store.tree.users().sort()).toEqual(['alice', 'bob']);
    expect(() => t.store.get('bob', alice.id)).toThrow(DomainError);
  });

  it('creates containers and files and reads them back as children, containers first then by name', async () => {
    const root = t.store.root('alice');
    const docs = await t.store.createContainer('alice', root.id, 'Docs');
    const file = await t.store.createFile(
      'alice',
      root.id,
      { name: 'a.txt', mimeType: 'text/plain' },
      Buffer.from('hello'),
    );
    const empty = await t.store.createFile('alice', root.id, { name: '0.bin' });
    expect(t.store.get('alice', docs.id, 'container').name).toBe('Docs');
    expect(t.store.get('alice', file.id, 'file')).toMatchObject({
      name: 'a.txt',
      mimeType: 'text/plain',
      bytes: 5,
      version: 1,
    });
    expect(empty).toMatchObject({ bytes: 0, mimeType: 'application/octet-stream' });
    expect(t.store.tree.children(root.id).map((n) => n.name)).toEqual(['Docs', '0.bin', 'a.txt']);
    expect((await contentOf(t.store, file.blobId)).toString()).toBe('hello');
    expect(await codeOf(Promise.resolve().then(() => t.store.get('alice', docs.id, 'file')))).toBe('not-found');
  });

  it('refuses empty, over-long and slash names as invalid', async () => {
    const root = t.store.root('alice').id;
    for (const name of ['', '   ', 'x'.repeat(256), 'a/b', '..']) {
      expect(await codeOf(t.store.createContainer('alice', root, name))).toBe('invalid');
    }
    expect(await codeOf(t.store.createContainer('alice', root, 'x'.repeat(255)))).toBe('fulfilled');
  });

  it('refuses a duplicate name in one container (files and containers alike) but allows it elsewhere', async () => {
    const root = t.store.root('alice').id;
    const sub = await t.store.createContainer('alice', root, 'sub');
    await t.store.createFile('alice', root, { name: 'same' }, Buffer.from('1'));
    expect(await codeOf(t.store.createFile('alice', root, { name: 'same' }, Buffer.from('2')))).toBe('duplicate');
    expect(await codeOf(t.store.createContainer('alice', root, 'same'))).toBe('duplicate');
    expect(await codeOf(t.store.createFile('alice', sub.id, { name: 'same' }))).toBe('fulfilled');
    expect(await codeOf(t.store.createFile('bob', t.store.root('bob').id, { name: 'same' }))).toBe('fulfilled');
  });

  it('replaces content: new bytes, size, version and a new blob; the old blob is dropped', async () => {
    const root = t.store.root('alice').id;
    const file = await t.store.createFile('alice', root, { name: 'f' }, Buffer.from('first'));
    const firstBlob = file.blobId;
    const after = await t.store.writeContent(
      'alice',
      file.id,
      slowStream([Buffer.from('second '), Buffer.from('version')]),
    );
    expect(after).toMatchObject({ bytes: 14, version: 2 });
    expect(after.blobId).not.toBe(firstBlob);
    expect((await contentOf(t.store, after.blobId)).toString()).toBe('second version');
    expect(await blobFiles(t.store)).toEqual([after.blobId]);
  });

  it('writes a block at an offset (Content-Range) and refuses an offset past the end', async () => {
    const root = t.store.root('alice').id;
    const file = await t.store.createFile('alice', root, { name: 'f' }, Buffer.from('abcdef'));
    await t.store.writeContent('alice', file.id, Buffer.from('XY'), 2);
    expect((await contentOf(t.store, t.store.get('alice', file.id).blobId)).toString()).toBe('abXYef');
    await t.store.writeContent('alice', file.id, Buffer.from('++'), 6);
    expect((await contentOf(t.store, t.store.get('alice', file.id).blobId)).toString()).toBe('abXYef++');
    expect(t.store.get('alice', file.id).bytes).toBe(8);
    expect(await codeOf(t.store.writeContent('alice', file.id, Buffer.from('z'), 9))).toBe('invalid');
  });

  it('renames, moves and sets public; refuses a clash, a move into itself and renaming the root', async () => {
    const root = t.store.root('alice').id;
    const a = await t.store.createContainer('alice', root, 'a');
    const b = await t.store.createContainer('alice', a.id, 'b');
    const f = await t.store.createFile('alice', root, { name: 'f' });
    await t.store.createFile('alice', b.id, { name: 'g' });
    await t.store.update('alice', f.id, { name: 'renamed', public: true });
    expect(t.store.get('alice', f.id)).toMatchObject({ name: 'renamed', public: true, version: 2 });
    await t.store.update('alice', f.id, { parentId: b.id });
    expect(t.store.tree.children(b.id).map((n) => n.name)).toEqual(['g', 'renamed']);
    expect(await codeOf(t.store.update('alice', f.id, { name: 'g' }))).toBe('duplicate');
    expect(await codeOf(t.store.update('alice', a.id, { parentId: b.id }))).toBe('conflict');
    expect(await codeOf(t.store.update('alice', root, { name: 'top' }))).toBe('conflict');
    expect(await codeOf(t.store.update('alice', f.id, { parentId: t.store.root('bob').id }))).toBe('not-found');
  });

  it('copies a subtree deeply, sharing the immutable blobs, and refuses copying into itself', async () => {
    const root = t.store.root('alice').id;
    const a = await t.store.createContainer('alice', root, 'a');
    const f = await t.store.createFile('alice', a.id, { name: 'f' }, Buffer.from('data'));
    await t.store.annotations.addTag('alice', f.id, 'red');
    const dest = await t.store.createContainer('alice', root, 'dest');
    const copy = await t.store.copy('alice', a.id, dest.id);
    const [copied] = t.store.tree.children(copy.id);
    expect(copied).toMatchObject({ name: 'f', bytes: 4, blobId: f.blobId, tags: ['red'] });
    expect(copied!.id).not.toBe(f.id);
    expect(await codeOf(t.store.copy('alice', a.id, dest.id))).toBe('duplicate');
    expect(await codeOf(t.store.copy('alice', a.id, a.id))).toBe('conflict');
    // The original's blob survives replacing the copy's content.
    await t.store.writeContent('alice', copied!.id, Buffer.from('new'));
    expect((await contentOf(t.store, t.store.get('alice', f.id).blobId)).toString()).toBe('data');
  });

  it('recycles an object (and its subtree) out of sight, lists, restores and purges it with its blobs', async () => {
    const root = t.store.root('alice').id;
    const a = await t.store.createContainer('alice', root, 'a');
    const f = await t.store.createFile('alice', a.id, { name: 'f' }, Buffer.from('bytes'));
    await t.store.recycleBin.add('alice', a.id);
    expect(await codeOf(Promise.resolve().then(() => t.store.get('alice', f.id)))).toBe('not-found');
    expect(t.store.tree.children(root)).toEqual([]);
    expect(t.store.recycleBin.list('alice').map((n) => n.name)).toEqual(['a']);
    expect(t.store.storedBytes('alice')).toBe(0);
    await t.store.recycleBin.restore('alice', a.id);
    expect(t.store.get('alice', f.id).name).toBe('f');
    await t.store.recycleBin.add('alice', a.id);
    await t.store.recycleBin.purge('alice', a.id);
    expect(t.store.recycleBin.list('alice')).toEqual([]);
    expect(t.store.tree.node(f.id)).toBeUndefined();
    expect(await blobFiles(t.store)).toEqual([]);
    expect(await codeOf(t.store.recycleBin.add('alice', root))).toBe('conflict');
  });

  it('applies and removes tags; lists tags in use and tagged objects, leaving out recycled ones', async () => {
    const root = t.store.root('alice').id;
    const f = await t.store.createFile('alice', root, { name: 'f' });
    const c = await t.store.createContainer('alice', root, 'c');
    await t.store.annotations.addTag('alice', f.id, 'blue');
    await t.store.annotations.addTag('alice', f.id, 'blue');
    await t.store.annotations.addTag('alice', c.id, 'amber');
    expect(t.store.get('alice', f.id).tags).toEqual(['blue']);
    expect(t.store.annotations.tagsInUse('alice')).toEqual(['amber', 'blue']);
    expect(t.store.annotations.tagsInUse('bob')).toEqual([]);
    expect(t.store.annotations.taggedWith('alice', 'blue').map((n) => n.id)).toEqual([f.id]);
    await t.store.recycleBin.add('alice', c.id);
    expect(t.store.annotations.tagsInUse('alice')).toEqual(['blue']);
    await t.store.annotations.removeTag('alice', f.id, 'blue');
    expect(await codeOf(t.store.annotations.removeTag('alice', f.id, 'blue'))).toBe('not-found');
    expect(await codeOf(Promise.resolve().then(() => t.store.annotations.taggedWith('alice', 'blue')))).toBe(
      'not-found',
    );
  });

  it('sets, overwrites and deletes metadata items; refuses an empty key', async () => {
    const f = await t.store.createFile('alice', t.store.root('alice').id, { name: 'f' });
    await t.store.annotations.setMetadata('alice', f.id, 'author', 'Ann');
    await t.store.annotations.setMetadata('alice', f.id, 'author', 'Bea');
    await t.store.annotations.setMetadata('alice', f.id, 'lang', 'en');
    expect(t.store.get('alice', f.id).metadata).toEqual({ author: 'Bea', lang: 'en' });
    await t.store.annotations.deleteMetadata('alice', f.id, 'lang');
    expect(await codeOf(t.store.annotations.deleteMetadata('alice', f.id, 'lang'))).toBe('not-found');
    expect(await codeOf(t.store.annotations.setMetadata('alice', f.id, '', 'x'))).toBe('invalid');
  });

  it('lets exactly one of two concurrent writers of one name win, leaving no stray blob', async () => {
    const root = t.store.root('alice').id;
    const parts = (c: string) => Array.from({ length: 5 }, () => Buffer.alloc(1000, c));
    const results = await Promise.allSettled([
      t.store.createFile('alice', root, { name: 'race' }, slowStream(parts('a'))),
      t.store.createFile('alice', root, { name: 'race' }, slowStream(parts('b'))),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const loser = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((loser.reason as DomainError).code).toBe('duplicate');
    const [winner] = t.store.tree.children(root);
    expect(winner!.bytes).toBe(5000);
    expect(await blobFiles(t.store)).toEqual([winner!.blobId]);
  });

  it('keeps one whole version when two writers replace the same content concurrently', async () => {
    const f = await t.store.createFile('alice', t.store.root('alice').id, { name: 'f' }, Buffer.from('0'));
    await Promise.all([
      t.store.writeContent('alice', f.id, slowStream(Array.from({ length: 4 }, () => Buffer.alloc(500, 'a')))),
      t.store.writeContent('alice', f.id, slowStream(Array.from({ length: 3 }, () => Buffer.alloc(500, 'b')))),
    ]);
    const body = (await contentOf(t.store, t.store.get('alice', f.id).blobId)).toString();
    expect(['a'.repeat(2000), 'b'.repeat(1500)]).toContain(body);
    expect(t.store.get('alice', f.id).bytes).toBe(body.length);
  });

  it('counts stored bytes per user from the live files', async () => {
    const root = t.store.root('alice').id;
    await t.store.createFile('alice', root, { name: 'a' }, Buffer.alloc(100));
    const b = await t.store.createFile('alice', root, { name: 'b' }, Buffer.alloc(50));
    expect(t.store.storedBytes('alice')).toBe(150);
    await t.store.recycleBin.add('alice', b.id);
    expect(t.store.storedBytes('alice')).toBe(100);
    expect(t.store.storedBytes('bob')).toBe(0);
  });

  it('a reset swaps a new state in whole and drops every blob of the old one', async () => {
    await t.store.createFile('alice', t.store.root('alice').id, { name: 'a' }, Buffer.alloc(10));
    await resetStore(t.store, { users: ['carol'] });
    expect(t.store.tree.users()).toEqual(['carol']);
    expect(await blobFiles(t.store)).toEqual([]);
  });
});
