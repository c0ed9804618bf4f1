import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readDurableState } from '../../../src/storage/state-log.js';
import { blobFiles, contentOf, openTestStore, type TestStore } from '../../helpers/stores.js';

describe('file store (openStore with data)', () => {
  let t: TestStore;
  beforeEach(async () => {
    t = await openTestStore('file');
  });
  afterEach(async () => {
    await t.dispose();
  });

  it('reloads every object, tag, metadata item and content after a reopen', async () => {
    const root = t.store.root('alice').id;
    const docs = await t.store.createContainer('alice', root, 'Docs');
    const f = await t.store.createFile(
      'alice',
      docs.id,
      { name: 'a.txt', mimeType: 'text/plain' },
      Buffer.from('persisted'),
    );
    await t.store.annotations.addTag('alice', f.id, 'keep');
    await t.store.annotations.setMetadata('alice', f.id, 'k', 'v');
    const gone = await t.store.createFile('alice', root, { name: 'gone' });
    await t.store.recycleBin.add('alice', gone.id);

    const again = await t.reopen();
    expect(again.root('alice').id).toBe(root);
    expect(again.tree.children(docs.id).map((n) => n.name)).toEqual(['a.txt']);
    expect(again.get('alice', f.id)).toMatchObject({ tags: ['keep'], metadata: { k: 'v' }, bytes: 9 });
    expect((await contentOf(again, again.get('alice', f.id).blobId)).toString()).toBe('persisted');
    expect(again.recycleBin.list('alice').map((n) => n.name)).toEqual(['gone']);
  });

  it('keeps bytes in blob files named by opaque id beside the JSON, never inside it or by user names', async () => {
    const secret = 'UNIQUE-CONTENT-'.repeat(20);
    const f = await t.store.createFile('alice', t.store.root('alice').id, { name: 'my-name.txt' }, Buffer.from(secret));
    const json = await readFile(t.dataFile!, 'utf8');
    expect(json).not.toContain('UNIQUE-CONTENT');
    expect(json).not.toContain(Buffer.from(secret).toString('base64').slice(0, 40));
    expect(t.store.blobs.dir).toBe(`${t.dataFile}.blobs`);
    expect(await readdir(t.store.blobs.dir)).toEqual([f.blobId]);
    expect(f.blobId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('has made the change durable (snapshot + log) by the time a mutation resolves', async () => {
    const c = await t.store.createContainer('alice', t.store.root('alice').id, 'written');
    const onDisk = (await readDurableState(t.dataFile!))!.state;
    expect(onDisk.nodes[c.id]!.name).toBe('written');
  });

  it('drops orphaned blobs and temp files at open, keeping referenced blobs', async () => {
    const f = await t.store.createFile('alice', t.store.root('alice').id, { name: 'f' }, Buffer.from('kept'));
    const dir = t.store.blobs.dir;
    await writeFile(join(dir, '0123456789abcdef0123456789abcdef'), 'orphan from a crash');
    await writeFile(join(dir, '.tmp-feedfacefeedface'), 'half a blob');
    const again = await t.reopen();
    expect(await blobFiles(again)).toEqual([f.blobId]);
    expect(existsSync(join(dir, '.tmp-feedfacefeedface'))).toBe(false);
  });
});
