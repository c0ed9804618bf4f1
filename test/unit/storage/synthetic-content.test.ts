import { createCipheriv, createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BlobStore } from '../../../src/storage/blob-store.js';
import {
  isSyntheticBlobId,
  parseSyntheticBlobId,
  SYNTHETIC_BLOCK,
  syntheticBlobId,
  syntheticBytes,
  syntheticChunks,
  syntheticStream,
  type SyntheticContent,
} from '../../../src/storage/synthetic-content.js';

const CONTENT: SyntheticContent = { seed: 42, fileId: 'AAAAAAAAAAAAAAAA', version: 1, size: 1000 };

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const BLOCK = SYNTHETIC_BLOCK;
/** Chunks that share one base (the generator's GROUP_CHUNKS): a file this long has a second base. */
const GROUP_BYTES = 4096 * BLOCK;

/** The format, written out on its own: byte n is the AES-CTR base of its group, rotated per chunk. */
function byteByTheFormat(content: SyntheticContent, n: number): number {
  const digest = createHash('sha256')
    .update(`csp-mock synthetic content 2\0${content.seed}\0${content.fileId}\0${content.version}`)
    .digest();
  const chunk = Math.floor(n / BLOCK);
  const group = Math.floor(chunk / 4096);
  const counter = Buffer.alloc(16);
  counter.writeBigUInt64BE(BigInt((group * BLOCK) / 16), 8);
  const base = createCipheriv('aes-128-ctr', digest.subarray(0, 16), counter).update(Buffer.alloc(BLOCK));
  const first = digest.readUInt32BE(16) % BLOCK;
  const stride = digest.readUInt32BE(20) % BLOCK | 1;
  return base[(first + (chunk % BLOCK) * stride + (n % BLOCK)) % BLOCK]!;
}

/** sha1 of each aligned `size`-byte block of the content's first `bytes`, read as views (never whole). */
function blockHashes(content: SyntheticContent, size: number, bytes = content.size): string[] {
  const hashes: string[] = [];
  for (let at = 0; at < bytes; at += size) {
    const hash = createHash('sha1');
    for (const view of syntheticChunks(content, at, at + size - 1)) hash.update(view);
    hashes.push(hash.digest('hex'));
  }
  return hashes;
}

describe('synthetic content: bytes derived on read from (seed, file id, version)', () => {
  it('pins the generator: these bytes are what every machine and every later version must derive', () => {
    // A change here changes the bytes of every generated account already in use (and their --data states).
    const bytes = syntheticBytes(CONTENT);
    expect(bytes.length).toBe(1000);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(
      'd208aaf0e474cad73ec544925d247c6ea3d701250145ec14f0454db7531a26d1',
    );
    const big = { ...CONTENT, size: 200 * 1024 * 1024 };
    expect(syntheticBytes(big, 0, 7).toString('hex')).toBe('1e36fb237b461710');
    expect(syntheticBytes(big, GROUP_BYTES + 5, GROUP_BYTES + 12).toString('hex')).toBe('1ad7af83b1a1358e');
    expect(syntheticBytes(big, 123_456_789, 123_456_796).toString('hex')).toBe('85ddf6ce093439a5');
  });

  it('follows its documented format: an AES-128-CTR base block per group of chunks, rotated per chunk', () => {
    const big = { ...CONTENT, size: 2 * GROUP_BYTES };
    for (const n of [
      0,
      1,
      BLOCK - 1,
      BLOCK,
      5 * BLOCK + 77,
      GROUP_BYTES - 1,
      GROUP_BYTES,
      GROUP_BYTES + 3 * BLOCK + 9,
    ]) {
      expect(syntheticBytes(big, n, n)[0]).toBe(byteByTheFormat(big, n));
    }
  });

  it('is seekable: a range made on its own equals that slice of the whole, at and across chunk edges', () => {
    const content = { ...CONTENT, size: 10 * BLOCK + 123 };
    const whole = syntheticBytes(content);
    const edge = 3 * BLOCK;
    for (const [start, end] of [
      [0, 0],
      [1, 15],
      [edge - 1, edge - 1], // the last byte of a chunk
      [edge, edge], // the first byte of the next
      [edge - 1, edge], // one byte either side of the edge
      [edge, 2 * edge - 1], // exactly chunks, edge to edge
      [edge + 1, edge + BLOCK - 2], // inside one chunk
      [edge - 10, edge + BLOCK + 10], // across two edges
      [BLOCK + 1, content.size - 1], // to the end, which is inside a chunk
      [content.size - 123, content.size - 1], // the short last chunk, whole
      [0, content.size + 500], // clamped to the size
    ] as const) {
      expect(syntheticBytes(content, start, end).equals(whole.subarray(start, end + 1))).toBe(true);
    }
  });

  it('is seekable across the edge of a group of chunks (where the base changes)', () => {
    const big = { ...CONTENT, size: GROUP_BYTES + 3 * BLOCK };
    const across = syntheticBytes(big, GROUP_BYTES - 20, GROUP_BYTES + 19);
    const before = syntheticBytes(big, GROUP_BYTES - 20, GROUP_BYTES - 1);
    const after = syntheticBytes(big, GROUP_BYTES, GROUP_BYTES + 19);
    expect(across.equals(Buffer.concat([before, after]))).toBe(true);
  });

  it('two readers of one file in different groups of chunks, interleaved, each get their own bytes', () => {
    const big = { ...CONTENT, size: GROUP_BYTES + 4 * BLOCK };
    const expected = [syntheticBytes(big, 0, 4 * BLOCK - 1), syntheticBytes(big, GROUP_BYTES, big.size - 1)];
    const readers = [syntheticChunks(big, 0, 4 * BLOCK - 1), syntheticChunks(big, GROUP_BYTES, big.size - 1)];
    const got: Buffer[][] = [[], []];
    for (let step = 0; step < 4; step++) for (const i of [0, 1]) got[i]!.push(Buffer.from(readers[i]!.next().value!));
    expect(Buffer.concat(got[0]!).equals(expected[0]!)).toBe(true);
    expect(Buffer.concat(got[1]!).equals(expected[1]!)).toBe(true);
  });

  it('streams the same bytes as it makes whole, whole or a range, in pieces', async () => {
    const content = { ...CONTENT, size: 1_000_003 };
    const whole = syntheticBytes(content);
    expect((await readAll(syntheticStream(content))).equals(whole)).toBe(true);
    const part = await readAll(syntheticStream(content, { start: 70_001, end: 900_000 }));
    expect(part.equals(whole.subarray(70_001, 900_001))).toBe(true);
    const edges = await readAll(syntheticStream(content, { start: BLOCK, end: 3 * BLOCK - 1 }));
    expect(edges.equals(whole.subarray(BLOCK, 3 * BLOCK))).toBe(true);
  });

  it('differs with the seed, the file id and the version', () => {
    const base = syntheticBytes(CONTENT);
    expect(syntheticBytes({ ...CONTENT, seed: 43 }).equals(base)).toBe(false);
    expect(syntheticBytes({ ...CONTENT, fileId: 'AAAAAAAAAAAAAAAB' }).equals(base)).toBe(false);
    expect(syntheticBytes({ ...CONTENT, version: 2 }).equals(base)).toBe(false);
  });

  it('no aligned 4 KiB block repeats within a file (past a group edge too), nor appears in another file', () => {
    const big = { ...CONTENT, size: GROUP_BYTES + 64 * BLOCK };
    const blocks = blockHashes(big, 4096);
    expect(new Set(blocks).size).toBe(blocks.length);
    const chunks = blockHashes(big, BLOCK);
    expect(new Set(chunks).size).toBe(chunks.length);
    const other = blockHashes({ ...big, fileId: 'AAAAAAAAAAAAAAAB' }, 4096, 64 * BLOCK);
    const mine = new Set(blocks);
    expect(other.filter((hash) => mine.has(hash))).toEqual([]);
  });

  it('names its content in a blob id that reads back, and no stored blob id reads as synthetic', () => {
    const id = syntheticBlobId(CONTENT);
    expect(isSyntheticBlobId(id)).toBe(true);
    expect(parseSyntheticBlobId(id)).toEqual(CONTENT);
    expect(parseSyntheticBlobId('0123456789abcdef0123456789abcdef')).toBeUndefined();
    expect(parseSyntheticBlobId('syn:1:../../etc:1:5')).toBeUndefined();
  });

  it('the blob store reads a synthetic id like a blob (whole, range), never caches, deletes or sweeps one', async () => {
    const blobs = await BlobStore.open(undefined, { folder: 'when-needed' });
    try {
      const content = { ...CONTENT, size: 3 * BLOCK };
      const id = syntheticBlobId(content);
      const whole = syntheticBytes(content);
      expect(await readAll(blobs.read(id))).toEqual(whole);
      expect(await readAll(blobs.read(id, { start: 10, end: 19 }))).toEqual(whole.subarray(10, 20));
      expect(await readAll(blobs.read(id, { start: BLOCK - 1, end: BLOCK }))).toEqual(
        whole.subarray(BLOCK - 1, BLOCK + 1),
      );
      // Always made as it streams: the cache keeps none of its bytes (it is as fast to make as to keep),
      // only the file's chunk maker, which is smaller than the content.
      expect(await blobs.bytesOf(id, content.size)).toBeUndefined();
      expect(blobs.cache.get(id)).toBeUndefined();
      expect(blobs.cache.bytes).toBeLessThan(content.size);
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
