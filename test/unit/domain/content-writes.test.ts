import { describe, expect, it } from 'vitest';
import { blobFiles, openTestStore, slowStream } from '../../helpers/stores.js';

describe('content writes never leave stray blobs', () => {
  it('two concurrent content writes leave only the referenced blob', async () => {
    const t = await openTestStore('memory');
    const f = await t.store.createFile('alice', t.store.root('alice').id, { name: 'f' }, Buffer.from('0'));
    await Promise.all([
      t.store.writeContent('alice', f.id, slowStream([Buffer.alloc(500, 'a'), Buffer.alloc(500, 'a')])),
      t.store.writeContent('alice', f.id, slowStream([Buffer.alloc(500, 'b')])),
    ]);
    expect(await blobFiles(t.store)).toEqual([t.store.get('alice', f.id).blobId]);
    await t.dispose();
  });

  it('a content write to a file deleted while the body streams fails and leaves no blob', async () => {
    const t = await openTestStore('memory');
    const f = await t.store.createFile('alice', t.store.root('alice').id, { name: 'f' });
    const write = t.store.writeContent('alice', f.id, slowStream([Buffer.alloc(500, 'a'), Buffer.alloc(500, 'a')], 20));
    await t.store.recycleBin.purge('alice', f.id, true);
    await expect(write).rejects.toThrow(/not found/);
    expect(await blobFiles(t.store)).toEqual([]);
    await t.dispose();
  });
});
