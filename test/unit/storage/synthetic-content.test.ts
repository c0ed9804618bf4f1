import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BlobStore } from '../../../src/storage/blob-store.js';
import {
  isSyntheticBlobId,
  parseSyntheticBlobId,
  syntheticBlobId,
  syntheticBytes,
  syntheticStream,
  type SyntheticContent,
} from '../../../src/storage/synthetic-content.js';

const CONTENT: SyntheticContent = { seed: 42, fileId: 'AAAAAAAAAAAAAAAA', version: 1, size: 1000 };

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('synthetic content: bytes derived on read from (seed, file id, version)', () => {
  it('pins the generator: these bytes are what every machine and every later version must derive', () => {
    // A change here changes the bytes of every generated account already in use (and their --data states).
    const bytes = syntheticBytes(CONTENT);
    expect(bytes.length).toBe(1000);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(
      '00c8f7db11031b50f8fbf014d41853dc6e2d265c38246ca1f48960246b3ba159',
    );
  });

  it('is seekable: any range made on its own equals that slice of the whole, across the 16-byte blocks', () => {
    const content = { ...CONTENT, size: 300_000 };
    const whole = syntheticBytes(content);
    for (const [start, end] of [
      [0, 0],
      [1, 15],
      [15, 16],
      [17, 70_000],
      [65_535, 65_537],
      [299_990, 299_999],
      [123_457, 250_001],
    ] as const) {
      expect(syntheticBytes(content, start, end).equals(whole.subarray(start, end + 1))).toBe(true);
    }
  });

  it('streams the same bytes as it makes whole, whole or a range, in pieces', async () => {
    const content = { ...CONTENT, size: 1_000_003 };
    const whole = syntheticBytes(content);
    expect((await readAll(syntheticStream(content))).equals(whole)).toBe(true);
    const part = await readAll(syntheticStream(content, { start: 70_001, end: 900_000 }));
    expect(part.equals(whole.subarray(70_001, 900_001))).toBe(true);
  });

  it('differs with the seed, the file id and the version', () => {
    const base = syntheticBytes(CONTENT);
    expect(syntheticBytes({ ...CONTENT, seed: 43 }).equals(base)).toBe(false);
    expect(syntheticBytes({ ...CONTENT, fileId: 'AAAAAAAAAAAAAAAB' }).equals(base)).toBe(false);
    expect(syntheticBytes({ ...CONTENT, version: 2 }).equals(base)).toBe(false);
  });

  it('names its content in a blob id that reads back, and no stored blob id reads as synthetic', () => {
    const id = syntheticBlobId(CONTENT);
    expect(isSyntheticBlobId(id)).toBe(true);
    expect(parseSyntheticBlobId(id)).toEqual(CONTENT);
    expect(parseSyntheticBlobId('0123456789abcdef0123456789abcdef')).toBeUndefined();
    expect(parseSyntheticBlobId('syn:1:../../etc:1:5')).toBeUndefined();
  });

  it('the blob store reads a synthetic id like a blob (whole, range, bytes) and never deletes or sweeps one', async () => {
    const blobs = await BlobStore.open(undefined, { folder: 'when-needed' });
    try {
      const id = syntheticBlobId(CONTENT);
      const whole = syntheticBytes(CONTENT);
      expect(await readAll(blobs.read(id))).toEqual(whole);
      expect(await readAll(blobs.read(id, { start: 10, end: 19 }))).toEqual(whole.subarray(10, 20));
      // A range alone is made alone; a whole read is made into the content cache, which then serves ranges too.
      expect(await blobs.bytesOf(id, CONTENT.size, { start: 10, end: 19 })).toBeUndefined();
      expect(blobs.cache.get(id)).toBeUndefined();
      expect(blobs.bytesOf(id, CONTENT.size)).toEqual(whole);
      expect(blobs.cache.get(id)).toEqual(whole);
      expect(blobs.bytesOf(id, CONTENT.size, { start: 10, end: 19 })).toEqual(whole);
      await blobs.delete(id);
      expect(await readAll(blobs.read(id))).toEqual(whole);
    } finally {
      await blobs.close();
    }
  });

  it('a block write into synthetic content makes a stored blob: the derived bytes with the write over them', async () => {
    const blobs = await BlobStore.open(undefined, { folder: 'when-needed' });
    try {
      const written = await blobs.writeAt(syntheticBlobId(CONTENT), 100, Buffer.from('PATCH'));
      expect(isSyntheticBlobId(written.blobId)).toBe(false);
      const expected = Buffer.from(syntheticBytes(CONTENT));
      expected.write('PATCH', 100);
      expect(await readAll(blobs.read(written.blobId))).toEqual(expected);
    } finally {
      await blobs.close();
    }
  });
});
