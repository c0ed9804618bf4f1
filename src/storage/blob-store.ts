import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, copyFile, mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StoreCache, type CacheShelf } from './store-cache.js';
import { HELD_BLOB_MAX_BYTES, HeldBlobs } from './held-blobs.js';
import { PrivateFolder } from './private-folder.js';
import { isDiskFull, toStorageError } from './storage-errors.js';
import {
  isSyntheticBlobId,
  parseSyntheticBlobId,
  syntheticChunks,
  syntheticStream,
  type ChunkMaker,
} from './synthetic-content.js';

const TMP_PREFIX = '.tmp-';
/** Blob files are private to the user, whatever the umask (so is their folder, 0700). */
const BLOB_MODE = 0o600;

/** A full disk while writing a blob is a StorageError('full') (507); anything else is left as it is. */
const diskFullAsStorageError = (err: unknown): unknown =>
  isDiskFull(err) ? toStorageError(err, 'cannot store the content') : err;

export interface StoredBlob {
  /** null for empty content: it needs no blob (a file without one reads as empty). */
  blobId: string | null;
  size: number;
}

/** What `writeAt` makes: always a blob. */
export interface WrittenBlob extends StoredBlob {
  blobId: string;
}

const EMPTY: StoredBlob = Object.freeze({ blobId: null, size: 0 });

/**
 * Immutable blobs in one directory, named by random id (never by a user's file name).
 * Writes stream to a temp file, fsync, then rename: a crash leaves either no blob or a whole one.
 * In memory mode the directory is a private temp dir, so big uploads never sit in RAM; its blobs die
 * with the process, so they skip the fsync, and small ones live in memory instead of a file each
 * (HeldBlobs, bounded: that is where memory mode stores them, not a copy). Apart from that, the
 * store's one bounded cache (StoreCache) keeps the bytes of recently read blobs. A synthetic blob id
 * (synthetic-content.ts) names bytes derived on read: nothing is stored, cached or deleted for it.
 */
export class BlobStore {
  readonly dir: string;
  readonly #ephemeral: boolean;
  /** Memory mode's folder, made when a blob first needs a file. */
  readonly #folder: PrivateFolder | undefined;
  /** Memory mode's small blobs: they have no file. */
  readonly #held = new HeldBlobs();
  /** The store's one cache: bytes of recently read blobs that have a file, and what the store keeps beside them (bounded; see StoreCache). */
  readonly cache: StoreCache;
  /** The chunk makers of recently read synthetic files, kept in the cache. */
  readonly #makers: CacheShelf<ChunkMaker>;

  private constructor(dir: string, folder: PrivateFolder | undefined, cacheBytes: number | undefined) {
    this.dir = dir;
    this.#ephemeral = folder !== undefined;
    this.#folder = folder;
    this.cache = new StoreCache(cacheBytes);
    this.#makers = this.cache.shelf('synthetic');
  }

  /**
   * `dir`: the blobs of a data file, kept. None: memory mode, a private folder in the temp dir, made
   * now or, with `folder: 'when-needed'`, when a blob first needs a file (the mock's choice).
   * `cacheBytes`: the store cache's bound (default DEFAULT_CONTENT_CACHE_MIB; 0: no cache).
   */
  static async open(
    dir?: string,
    options: { folder?: 'now' | 'when-needed'; cacheBytes?: number } = {},
  ): Promise<BlobStore> {
    if (dir) {
      // Private whatever the umask (and a folder an older version made is made so): 0700, files 0600.
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await chmod(dir, 0o700);
      return new BlobStore(dir, undefined, options.cacheBytes);
    }
    const folder = new PrivateFolder();
    if (options.folder !== 'when-needed') await folder.ready();
    return new BlobStore(folder.path, folder, options.cacheBytes);
  }

  /** Where a blob's file is; a blob held in memory has none. */
  pathOf(blobId: string): string {
    return join(this.dir, blobId);
  }

  /** Bytes memory mode holds in memory now (bounded by HELD_TOTAL_MAX_BYTES). */
  get heldBytes(): number {
    return this.#held.bytes;
  }

  /**
   * Stores content as a new blob; empty content stores nothing (one fsync and one file fewer per empty
   * file). In memory mode the folder is private and dies with the process, so a blob is written under
   * its final name at once (no temp file, rename or stat: a 1 KiB upload's cost is mostly these calls);
   * no node points at it until put resolves, and a failed write is removed. Small content (a buffer,
   * or a stream that ends within HELD_BLOB_MAX_BYTES) is not written at all in memory mode while the
   * held blobs have room.
   */
  async put(given: Readable | Buffer): Promise<StoredBlob> {
    const direct = this.#ephemeral ? newBlobId() : undefined;
    const source = direct && !Buffer.isBuffer(given) ? await smallOrStream(given) : given;
    if (Buffer.isBuffer(source) && source.length === 0) return EMPTY;
    if (direct && Buffer.isBuffer(source) && this.#held.keep(direct, source))
      return { blobId: direct, size: source.length };
    const tmp = direct ? this.pathOf(direct) : this.#tmpPath();
    try {
      await this.#folder?.ready();
      let size: number;
      if (Buffer.isBuffer(source)) {
        const fh = await open(tmp, 'w', BLOB_MODE);
        try {
          await fh.writeFile(source);
          if (!this.#ephemeral) await fh.sync();
        } finally {
          await fh.close();
        }
        size = source.length;
      } else {
        const out = createWriteStream(tmp, { mode: BLOB_MODE });
        await pipeline(source, out);
        size = out.bytesWritten;
        if (size === 0) {
          await rm(tmp, { force: true });
          return EMPTY;
        }
        await this.#sync(tmp);
      }
      return direct ? { blobId: direct, size } : await this.#commit(tmp, size);
    } catch (err) {
      await rm(tmp, { force: true });
      throw diskFullAsStorageError(err);
    }
  }

  /** Copy-on-write block write: a new blob equal to `blobId` with `source` written at `offset`. */
  async writeAt(blobId: string, offset: number, source: Readable | Buffer): Promise<WrittenBlob> {
    const tmp = this.#tmpPath();
    try {
      await this.#folder?.ready();
      const held = this.#held.get(blobId);
      const synthetic = parseSyntheticBlobId(blobId);
      // A block write into synthetic content makes it stored content: the derived bytes, then the write.
      if (synthetic)
        await pipeline(
          syntheticStream(synthetic, undefined, this.#makers),
          createWriteStream(tmp, { mode: BLOB_MODE }),
        );
      else if (held) await writeFile(tmp, held, { mode: BLOB_MODE });
      // A copy takes its source's mode; a blob an older version wrote may be readable by others.
      else await copyFile(this.pathOf(blobId), tmp).then(() => chmod(tmp, BLOB_MODE));
      const input = Buffer.isBuffer(source) ? Readable.from([source]) : source;
      await pipeline(input, createWriteStream(tmp, { flags: 'r+', start: offset }));
      await this.#sync(tmp);
      return await this.#commit(tmp);
    } catch (err) {
      await rm(tmp, { force: true });
      throw diskFullAsStorageError(err);
    }
  }

  read(blobId: string, range?: { start: number; end: number }): Readable {
    return (
      this.syntheticRead(blobId, range) ??
      this.#held.read(blobId, range) ??
      createReadStream(this.pathOf(blobId), range)
    );
  }

  /** The bytes of synthetic content (or the inclusive range of them), made as they are read; undefined for a stored blob. */
  syntheticRead(blobId: string, range?: { start: number; end: number }): Readable | undefined {
    const synthetic = parseSyntheticBlobId(blobId);
    return synthetic && syntheticStream(synthetic, range, this.#makers);
  }

  /** syntheticRead as the views it is made of, for a writer that batches them; undefined for a stored blob. */
  syntheticChunks(blobId: string, range?: { start: number; end: number }): Iterator<Buffer> | undefined {
    const synthetic = parseSyntheticBlobId(blobId);
    return synthetic && syntheticChunks(synthetic, range?.start, range?.end, this.#makers);
  }

  /**
   * A blob's whole bytes from memory: held, or from the cache (read into it on a miss); undefined: stream it.
   * Synthetic content is always streamed (syntheticRead): it is made as fast as memory serves bytes, so
   * keeping it would only take the cache's room from stored blobs.
   */
  bytesOf(blobId: string, size: number): Buffer | Promise<Buffer | undefined> {
    if (isSyntheticBlobId(blobId)) return Promise.resolve(undefined);
    return this.#held.get(blobId) ?? this.cache.get(blobId) ?? this.cache.read(blobId, this.pathOf(blobId), size);
  }

  async delete(blobId: string): Promise<void> {
    if (parseSyntheticBlobId(blobId)) return;
    this.cache.delete(blobId);
    if (this.#held.delete(blobId)) return;
    await rm(this.pathOf(blobId), { force: true });
  }

  /** Everything this store holds: the names in its folder (temp files too) and the blobs held in memory. */
  async stored(): Promise<string[]> {
    const files = this.#folder?.made === false ? [] : await readdir(this.dir);
    return [...files, ...this.#held.ids()];
  }

  /** Drops temp files and blobs nothing points at (left by a crash between blob and metadata writes). */
  async sweep(referenced: Set<string>): Promise<number> {
    if (this.#folder?.made === false) return 0; // a folder not made yet holds nothing
    let dropped = 0;
    for (const name of await readdir(this.dir)) {
      if (name.startsWith(TMP_PREFIX) || !referenced.has(name)) {
        this.cache.delete(name);
        await rm(join(this.dir, name), { force: true, recursive: true });
        dropped++;
      }
    }
    return dropped;
  }

  async close(): Promise<void> {
    this.cache.clear();
    this.#held.clear();
    await this.#folder?.remove();
  }

  #tmpPath(): string {
    return join(this.dir, TMP_PREFIX + randomBytes(8).toString('hex'));
  }

  async #sync(path: string): Promise<void> {
    if (this.#ephemeral) return;
    const fh = await open(path, 'r+');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  }

  async #commit(tmp: string, size?: number): Promise<WrittenBlob> {
    const blobId = newBlobId();
    const bytes = size ?? (await stat(tmp)).size;
    await rename(tmp, this.pathOf(blobId));
    return { blobId, size: bytes };
  }
}

/**
 * The whole of a stream that ends within HELD_BLOB_MAX_BYTES, as one buffer; else a stream of the
 * same bytes (those read so far, then the rest). Read in flowing mode, as a pipe reads, so whoever
 * paces the source with pause() and resume() keeps doing so.
 */
function smallOrStream(source: Readable): Promise<Buffer | Readable> {
  return new Promise((resolve, reject) => {
    const head: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
    };
    const onData = (chunk: Buffer): void => {
      head.push(chunk);
      size += chunk.length;
      if (size <= HELD_BLOB_MAX_BYTES) return;
      stop();
      source.pause();
      const rest = new PassThrough();
      for (const part of head) rest.write(part);
      // Errors travel both ways: a failed write lets the source go, a failed source fails the write.
      pipeline(source, rest).catch(() => undefined);
      resolve(rest);
    };
    const onEnd = (): void => {
      stop();
      resolve(Buffer.concat(head, size));
    };
    const onError = (err: Error): void => {
      stop();
      reject(err);
    };
    source.on('data', onData);
    source.once('end', onEnd);
    source.once('error', onError);
  });
}

const BLOB_ID_BYTES = 16;
const POOL_IDS = 256;
let idPool = Buffer.alloc(0);
let idOffset = 0;

/** 128 random bits, hex; drawn from a pool, since a randomBytes call per id is a noticeable part of a small upload. */
function newBlobId(): string {
  if (idOffset >= idPool.length) {
    idPool = randomBytes(BLOB_ID_BYTES * POOL_IDS);
    idOffset = 0;
  }
  idOffset += BLOB_ID_BYTES;
  return idPool.toString('hex', idOffset - BLOB_ID_BYTES, idOffset);
}
