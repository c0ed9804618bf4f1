import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobStore } from '../../../src/storage/blob-store.js';
import { HELD_BLOB_MAX_BYTES, HeldBlobs } from '../../../src/storage/held-blobs.js';

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString();
}

describe('memory mode keeps small blobs in memory, bounded', () => {
  let blobs: BlobStore;
  beforeEach(async () => {
    blobs = await BlobStore.open();
  });
  afterEach(async () => {
    await blobs.close();
  });

  it('writes no file for a small buffer, and reads it back whole and by range', async () => {
    const source = Buffer.from('0123456789');
    const { blobId, size } = await blobs.put(source);
    source.fill(0); // the caller's buffer is its own: the blob keeps a copy
    expect(blobId).toMatch(/^[0-9a-f]{32}$/);
    expect(size).toBe(10);
    expect(await readdir(blobs.dir)).toEqual([]);
    expect(blobs.heldBytes).toBeGreaterThanOrEqual(10);
    expect(await readAll(blobs.read(blobId!))).toBe('0123456789');
    expect(await readAll(blobs.read(blobId!, { start: 2, end: 5 }))).toBe('2345');
  });

  it('writes a file for a buffer or a stream over the held size; a small stream is held, whole', async () => {
    const big = await blobs.put(Buffer.alloc(HELD_BLOB_MAX_BYTES + 1, 'b'));
    const chunks = [Buffer.alloc(HELD_BLOB_MAX_BYTES - 1, 'x'), Buffer.from('yz'), Buffer.from('tail')];
    const streamed = await blobs.put(Readable.from(chunks));
    expect(streamed.size).toBe(HELD_BLOB_MAX_BYTES + 5);
    expect(await readAll(blobs.read(streamed.blobId!))).toBe(Buffer.concat(chunks).toString());
    expect((await readdir(blobs.dir)).sort()).toEqual([big.blobId, streamed.blobId].sort());
    expect(blobs.heldBytes).toBe(0);
    const small = await blobs.put(Readable.from([Buffer.from('str'), Buffer.from('eamed')]));
    expect(await readAll(blobs.read(small.blobId!))).toBe('streamed');
    expect((await readdir(blobs.dir)).length).toBe(2);
    expect(blobs.heldBytes).toBeGreaterThanOrEqual(8);
    expect(await blobs.put(Readable.from([]))).toEqual({ blobId: null, size: 0 });
  });

  it('a stream that fails after the held size leaves no file and says why', async () => {
    const failing = Readable.from(
      (async function* () {
        yield Buffer.alloc(HELD_BLOB_MAX_BYTES + 1, 'f');
        throw new Error('client went away');
      })(),
    );
    await expect(blobs.put(failing)).rejects.toThrow('client went away');
    expect(await readdir(blobs.dir)).toEqual([]);
  });

  it('writes a block copy-on-write over a held blob, the original untouched', async () => {
    const original = await blobs.put(Buffer.from('abcdef'));
    const patched = await blobs.writeAt(original.blobId!, 4, Buffer.from('XYZ'));
    expect(await readAll(blobs.read(patched.blobId))).toBe('abcdXYZ');
    expect(await readAll(blobs.read(original.blobId!))).toBe('abcdef');
  });

  it('serves a held blob from memory, never writing it to a file to read it', async () => {
    const { blobId, size } = await blobs.put(Buffer.from('in memory'));
    expect(blobs.bytesOf(blobId!, size)).toEqual(Buffer.from('in memory'));
    expect(await readAll(blobs.read(blobId!, { start: 3, end: 8 }))).toBe('memory');
    expect(await readdir(blobs.dir)).toEqual([]);
    expect(blobs.cache.size).toBe(0); // held blobs are storage, not cached copies
  });

  it('forgets held blobs on delete and on close', async () => {
    const { blobId } = await blobs.put(Buffer.from('x'));
    await blobs.delete(blobId!);
    await blobs.delete(blobId!);
    expect(blobs.heldBytes).toBe(0);
    await blobs.put(Buffer.from('y'));
    await blobs.close();
    expect(blobs.heldBytes).toBe(0);
  });
});

describe('HeldBlobs', () => {
  it('refuses what would pass its bound, counting a cost per blob so tiny blobs are bounded too', () => {
    const held = new HeldBlobs(4 * 1024);
    let kept = 0;
    while (held.keep(`id${kept}`, Buffer.from('1'))) kept++;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(4); // 1-byte blobs, but each costs about a KiB
    expect(held.bytes).toBeLessThanOrEqual(4 * 1024);
    held.delete('id0');
    expect(held.keep('again', Buffer.from('1'))).toBe(true);
    expect(held.keep('too-big', Buffer.alloc(HELD_BLOB_MAX_BYTES + 1))).toBe(false);
  });
});

describe('a persistent store (--data)', () => {
  it('keeps nothing in memory: every blob is a file before put resolves', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'csp-mock-heldtest-'));
    const persistent = await BlobStore.open(join(dir, 'state.json.blobs'));
    try {
      const { blobId } = await persistent.put(Buffer.from('durable'));
      expect(persistent.heldBytes).toBe(0);
      expect(await readFile(persistent.pathOf(blobId!), 'utf8')).toBe('durable');
    } finally {
      await persistent.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
