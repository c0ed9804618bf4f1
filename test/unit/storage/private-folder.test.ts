import { existsSync, statSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { startMock } from '../../../src/index.js';
import { BlobStore } from '../../../src/storage/blob-store.js';
import { HELD_BLOB_MAX_BYTES } from '../../../src/storage/held-blobs.js';
import { folderOfDeadOwner, folderOfExitedOwner } from '../../helpers/blob-folders.js';

describe("memory mode's private folder, made when a blob first needs a file", () => {
  it('is not made for small blobs; a large one makes it (mode 0700); close removes it', async () => {
    const blobs = await BlobStore.open(undefined, { folder: 'when-needed' });
    try {
      expect(blobs.dir).toMatch(new RegExp(`csp-mock-blobs-${process.pid}-[^/]+$`));
      const small = await blobs.put(Buffer.from('small'));
      expect(existsSync(blobs.dir)).toBe(false);
      expect(await blobs.sweep(new Set())).toBe(0);
      expect(await blobs.stored()).toEqual([small.blobId]);
      const large = await blobs.put(Buffer.alloc(HELD_BLOB_MAX_BYTES + 1, 'l'));
      expect(statSync(blobs.dir).mode & 0o777).toBe(0o700);
      expect(await readdir(blobs.dir)).toEqual([large.blobId]);
    } finally {
      await blobs.close();
    }
    expect(existsSync(blobs.dir)).toBe(false);
  });

  it('is made by a stream over the held size and by a block write over a held blob', async () => {
    for (const needsFile of [
      (b: BlobStore) => b.put(Readable.from([Buffer.alloc(HELD_BLOB_MAX_BYTES, 's'), Buffer.from('more')])),
      async (b: BlobStore) => b.writeAt((await b.put(Buffer.from('abc'))).blobId!, 1, Buffer.from('X')),
    ]) {
      const blobs = await BlobStore.open(undefined, { folder: 'when-needed' });
      try {
        await needsFile(blobs);
        expect((await readdir(blobs.dir)).length).toBe(1);
      } finally {
        await blobs.close();
      }
      expect(existsSync(blobs.dir)).toBe(false);
    }
  });

  it("is removed when the process ends without close(), and sweeps a dead owner's folder when made", async () => {
    const left = folderOfExitedOwner(
      "undefined, { folder: 'when-needed' }",
      `await b.put(Buffer.alloc(${HELD_BLOB_MAX_BYTES + 1}))`,
    );
    expect(left.dir, left.stderr).toMatch(/csp-mock-blobs-\d+-/);
    expect(existsSync(left.dir)).toBe(false);
    const abandoned = await folderOfDeadOwner();
    const blobs = await BlobStore.open(undefined, { folder: 'when-needed' });
    try {
      expect(existsSync(abandoned)).toBe(true); // nothing made yet, nothing swept
      await blobs.put(Readable.from([Buffer.alloc(HELD_BLOB_MAX_BYTES + 1, 'm')]));
      expect(existsSync(abandoned)).toBe(false);
    } finally {
      await blobs.close();
      await rm(abandoned, { recursive: true, force: true });
    }
  });

  it('a mock answers GET, HEAD and Range reads of a small file from memory, writing no file', async () => {
    const mock = await startMock({ seed: 'empty', log: false });
    const auth = { Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}` };
    try {
      const root = mock.store.root('demo');
      const file = await mock.store.createFile('demo', root.id, { name: 'small.txt' }, Buffer.from('0123456789'));
      const url = `${mock.url}/v2/files/${file.id}/content`;
      const got = await fetch(url, { headers: auth });
      expect(got.status).toBe(200);
      expect(await got.text()).toBe('0123456789');
      const head = await fetch(url, { method: 'HEAD', headers: auth });
      expect(head.headers.get('content-length')).toBe('10');
      expect(existsSync(mock.store.blobs.dir)).toBe(false);
      for (let i = 0; i < 2; i++) {
        const part = await fetch(url, { headers: { ...auth, Range: 'bytes=2-5' } });
        expect(part.status).toBe(206);
        expect(await part.text()).toBe('2345');
      }
      expect(existsSync(mock.store.blobs.dir)).toBe(false);
      expect(await (await fetch(url, { headers: auth })).text()).toBe('0123456789');
    } finally {
      await mock.close();
    }
  });

  it('a mock that stores only small files makes no folder; a large upload makes it, close removes it', async () => {
    const mock = await startMock({ seed: 'demo', log: false });
    const dir = mock.store.blobs.dir;
    try {
      expect(existsSync(dir)).toBe(false);
      const root = mock.store.root('demo');
      await mock.store.createFile('demo', root.id, { name: 'big.bin' }, Buffer.alloc(HELD_BLOB_MAX_BYTES + 1));
      expect(existsSync(dir)).toBe(true);
    } finally {
      await mock.close();
    }
    expect(existsSync(dir)).toBe(false);
  });
});
