import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rmSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobCache, type BlobLease } from './blob-cache.js';
import { onProcessExit } from './exit-cleanup.js';
import { isDiskFull, processAlive, toStorageError } from './storage-errors.js';
import { countStreamedBytes } from './young-garbage.js';

const TMP_PREFIX = '.tmp-';
/** Memory mode's private folders: csp-mock-blobs-<owner pid>-<random>, so a later start can sweep a killed owner's. */
const EPHEMERAL_PREFIX = 'csp-mock-blobs-';
const EPHEMERAL_NAME = /^csp-mock-blobs-(\d+)-/;

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
 * In memory mode the directory is a private temp dir, so big uploads never sit in RAM either; its
 * blobs die with the process, so they skip the fsync.
 */
export class BlobStore {
  readonly dir: string;
  readonly #ephemeral: boolean;
  /** Memory mode: removes the folder if the process ends without close(). */
  readonly #unregisterCleanup: () => void;
  /** Bytes of recently served small blobs (bounded; see BlobCache). */
  readonly cache = new BlobCache();

  private constructor(dir: string, ephemeral: boolean) {
    this.dir = dir;
    this.#ephemeral = ephemeral;
    this.#unregisterCleanup = ephemeral
      ? onProcessExit(() => rmSync(dir, { recursive: true, force: true }))
      : () => undefined;
  }

  static async open(dir?: string): Promise<BlobStore> {
    if (dir) {
      await mkdir(dir, { recursive: true });
      return new BlobStore(dir, false);
    }
    await sweepAbandonedFolders(tmpdir());
    return new BlobStore(await mkdtemp(join(tmpdir(), `${EPHEMERAL_PREFIX}${process.pid}-`)), true);
  }

  pathOf(blobId: string): string {
    return join(this.dir, blobId);
  }

  /**
   * Stores content as a new blob; empty content stores nothing (one fsync and one file fewer per empty
   * file). In memory mode the folder is private and dies with the process, so a blob is written under
   * its final name at once (no temp file, rename or stat: a 1 KiB upload's cost is mostly these calls);
   * no node points at it until put resolves, and a failed write is removed.
   */
  async put(source: Readable | Buffer): Promise<StoredBlob> {
    if (Buffer.isBuffer(source) && source.length === 0) return EMPTY;
    const direct = this.#ephemeral ? newBlobId() : undefined;
    const tmp = direct ? this.pathOf(direct) : this.#tmpPath();
    try {
      let size: number;
      if (Buffer.isBuffer(source)) {
        const fh = await open(tmp, 'w');
        try {
          await fh.writeFile(source);
          if (!this.#ephemeral) await fh.sync();
        } finally {
          await fh.close();
        }
        size = source.length;
      } else {
        const out = createWriteStream(tmp);
        await streamInto(source, out);
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
      await copyFile(this.pathOf(blobId), tmp);
      const input = Buffer.isBuffer(source) ? Readable.from([source]) : source;
      await streamInto(input, createWriteStream(tmp, { flags: 'r+', start: offset }));
      await this.#sync(tmp);
      return await this.#commit(tmp);
    } catch (err) {
      await rm(tmp, { force: true });
      throw diskFullAsStorageError(err);
    }
  }

  read(blobId: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.pathOf(blobId), range);
  }

  /** A blob's whole bytes, leased from the cache (read into it on a miss); undefined when they do not fit. */
  whole(blobId: string, size: number): Promise<BlobLease | undefined> {
    return this.cache.read(blobId, this.pathOf(blobId), size);
  }

  async delete(blobId: string): Promise<void> {
    this.cache.delete(blobId);
    await rm(this.pathOf(blobId), { force: true });
  }

  /** Drops temp files and blobs nothing points at (left by a crash between blob and metadata writes). */
  async sweep(referenced: Set<string>): Promise<number> {
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
    if (!this.#ephemeral) return;
    await rm(this.dir, { recursive: true, force: true });
    this.#unregisterCleanup();
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

const newBlobId = (): string => randomBytes(16).toString('hex');

/** pipeline, counting the bytes for countStreamedBytes (a listener added once pipe has attached its own). */
function streamInto(source: Readable, out: Writable): Promise<void> {
  const done = pipeline(source, out);
  source.on('data', (chunk: Buffer | string) => countStreamedBytes(chunk.length));
  return done;
}

/** Removes the memory-mode folders whose owner process is gone (killed before it could clean up). */
export async function sweepAbandonedFolders(parent: string): Promise<number> {
  let swept = 0;
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    const owner = EPHEMERAL_NAME.exec(name)?.[1];
    if (owner === undefined || Number(owner) === process.pid || processAlive(Number(owner))) continue;
    await rm(join(parent, name), { recursive: true, force: true }).catch(() => undefined);
    swept++;
  }
  return swept;
}
