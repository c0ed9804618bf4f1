import { createCipheriv, createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { CacheShelf } from './store-cache.js';

/**
 * Synthetic content: a file of a generated account stores no bytes. Its blob id names where its bytes
 * come from instead, `syn:<seed>:<file id>:<version>:<size>`, and the bytes are derived on every read.
 *
 * The generator has to serve a fresh file about as fast as memory serves stored bytes, so no byte may
 * cost more than a copy: a keystream of the whole file (AES-CTR, about 1 GB/s a core) is several times
 * too slow. Instead each file has a random base block of BLOCK bytes (AES-128-CTR under a key hashed
 * from (seed, file id, version): standard, on the CPU's AES instructions, the same on every machine and
 * Node version), and the file is a run of BLOCK-sized aligned chunks, chunk i being that base rotated
 * by r(i) = r0 + i * stride (mod BLOCK), r0 and an odd stride also from the key. A rotation is a slice
 * of the base written twice over, so a chunk is served without copying a byte, and any byte is found
 * from its offset alone (a Range costs only its own length).
 *
 * What this gives: different files (and versions) have different bytes; within a file, every aligned
 * block of 4 KiB or more (a power of two) differs from every other one, because an odd stride makes
 * r(i) + offset-in-chunk distinct for the first 4096 chunks, and each next run of 4096 chunks has a
 * base of its own (the keystream's next BLOCK bytes). What it does NOT give: the content is not
 * incompressible to a compressor or a deduplicator that looks further than one BLOCK back (a long-window
 * compressor, content-defined chunking, rsync's rolling checksum): a file is BLOCK random bytes seen
 * through different windows. It is test data, not random data.
 *
 * The id is immutable like any blob id, so a copy that shares it has the same bytes, and a write
 * replaces it with a stored blob as usual. The bytes an id names are part of the saved-state format:
 * a different generator would need a generator version in the id, so that a state saved before keeps
 * the bytes its ETags promised (none is needed yet: no release has made a state with another generator).
 */
export interface SyntheticContent {
  seed: number;
  fileId: string;
  version: number;
  size: number;
}

const PREFIX = 'syn:';
const SYNTHETIC_ID = /^syn:(\d{1,16}):([A-Za-z0-9_-]{1,64}):(\d{1,9}):(\d{1,16})$/;
/** The base block and aligned chunk size: made once per read (and per GROUP_CHUNKS chunks), so small; a chunk is one write. */
export const SYNTHETIC_BLOCK = 16 * 1024;
/** Chunks that share one base: as many as keep each aligned 4 KiB of them a different window of it. */
const GROUP_CHUNKS = 4096;
const ZEROS = Buffer.alloc(SYNTHETIC_BLOCK);
/** What a kept maker costs: its base written twice, and its key. */
const MAKER_BYTES = 2 * SYNTHETIC_BLOCK + 64;
/**
 * Joined, not concatenated: a concatenation this long stays a tree of its pieces in V8 (a cons string),
 * and a generated account holds one of these per file.
 */
export function syntheticBlobId(content: SyntheticContent): string {
  return ['syn', content.seed, content.fileId, content.version, content.size].join(':');
}

export function isSyntheticBlobId(blobId: string): boolean {
  return blobId.startsWith(PREFIX);
}

/** The content a synthetic blob id names; undefined for a stored blob's id (or a malformed one). */
export function parseSyntheticBlobId(blobId: string): SyntheticContent | undefined {
  const match = SYNTHETIC_ID.exec(blobId);
  if (!match) return undefined;
  const [seed, fileId, version, size] = [Number(match[1]), match[2]!, Number(match[3]), Number(match[4])];
  if (!Number.isSafeInteger(seed) || !Number.isSafeInteger(size)) return undefined;
  return { seed, fileId, version, size };
}

/**
 * What a file's chunks are made of: its key and rotation, and the base of one group, kept while it is
 * read. The blob store keeps the makers of recently read files in the store's cache: a file read again
 * (a retry, a player's next range) skips its key and base, which are most of what a small read costs.
 */
export class ChunkMaker {
  readonly #key: Buffer;
  readonly #first: number;
  readonly #stride: number;
  #group = -1;
  /** The group's base written twice, so every rotation of it is one slice. */
  #doubled = Buffer.alloc(0);

  constructor(content: SyntheticContent) {
    const digest = createHash('sha256')
      .update(`csp-mock synthetic content 2\0${content.seed}\0${content.fileId}\0${content.version}`)
      .digest();
    this.#key = digest.subarray(0, 16);
    this.#first = digest.readUInt32BE(16) % SYNTHETIC_BLOCK;
    this.#stride = digest.readUInt32BE(20) % SYNTHETIC_BLOCK | 1;
  }

  /** Bytes `from` to `to` (exclusive, within one chunk) of chunk `index`: a view of the base, no copy. */
  slice(index: number, from: number, to: number): Buffer {
    const group = Math.floor(index / GROUP_CHUNKS);
    if (group !== this.#group) this.#makeBase(group);
    // (index mod BLOCK) keeps the product a safe integer for any size; the rotation only depends on it mod BLOCK.
    const rotation = (this.#first + (index % SYNTHETIC_BLOCK) * this.#stride) % SYNTHETIC_BLOCK;
    return this.#doubled.subarray(rotation + from, rotation + to);
  }

  /** The group's base: the AES-128-CTR keystream's BLOCK bytes at block `group`. */
  #makeBase(group: number): void {
    const counter = Buffer.alloc(16);
    counter.writeBigUInt64BE(BigInt(group * (SYNTHETIC_BLOCK / 16)), 8);
    const base = createCipheriv('aes-128-ctr', this.#key, counter).update(ZEROS);
    this.#doubled = Buffer.concat([base, base]);
    this.#group = group;
  }
}

/**
 * The inclusive range `start`..`end` of the content (clamped to its size) as views of its base, chunk by
 * chunk: nothing is copied, and the views share one small block however long the file is.
 */
export function syntheticChunks(
  content: SyntheticContent,
  start = 0,
  end = content.size - 1,
  makers?: CacheShelf<ChunkMaker>,
): Generator<Buffer> {
  return chunks(content, start, Math.min(end, content.size - 1), makers);
}

/** A maker for the file: kept in `makers` (made and kept there on a miss), else made for this read alone. */
function makerOf(content: SyntheticContent, makers: CacheShelf<ChunkMaker> | undefined): ChunkMaker {
  const name = [content.seed, content.fileId, content.version].join(':');
  let maker = makers?.get(name);
  if (!maker) {
    maker = new ChunkMaker(content);
    makers?.set(name, maker, MAKER_BYTES);
  }
  return maker;
}

function* chunks(
  content: SyntheticContent,
  start: number,
  end: number,
  makers?: CacheShelf<ChunkMaker>,
): Generator<Buffer> {
  const maker = makerOf(content, makers);
  for (let at = start; at <= end; ) {
    const index = Math.floor(at / SYNTHETIC_BLOCK);
    const from = at - index * SYNTHETIC_BLOCK;
    const to = Math.min(SYNTHETIC_BLOCK, end + 1 - index * SYNTHETIC_BLOCK);
    yield maker.slice(index, from, to);
    at += to - from;
  }
}

/** Bytes `start` to `end` (inclusive) of the content, clamped to its size, in one buffer of their own. */
export function syntheticBytes(content: SyntheticContent, start = 0, end = content.size - 1): Buffer {
  const last = Math.min(end, content.size - 1);
  if (last < start) return Buffer.alloc(0);
  return Buffer.concat([...chunks(content, start, last)], last - start + 1);
}

/**
 * The content (or the inclusive `range` of it) as a stream of views of its base block, made as the
 * reader takes them: no byte is copied or allocated per chunk, so a fresh file streams as fast as a
 * stored one from memory and needs no room in the content cache.
 */
export function syntheticStream(
  content: SyntheticContent,
  range?: { start: number; end: number },
  makers?: CacheShelf<ChunkMaker>,
): Readable {
  const start = range?.start ?? 0;
  const end = Math.min(range?.end ?? content.size - 1, content.size - 1);
  const pieces = chunks(content, start, end, makers);
  return new Readable({
    highWaterMark: 4 * SYNTHETIC_BLOCK,
    read() {
      for (;;) {
        const next = pieces.next();
        if (next.done) return void this.push(null);
        if (!this.push(next.value)) return;
      }
    },
  });
}
