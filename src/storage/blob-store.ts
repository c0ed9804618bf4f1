import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, mkdtemp, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const TMP_PREFIX = '.tmp-';

export interface StoredBlob {
  blobId: string;
  size: number;
}

/**
 * Immutable blobs in one directory, named by random id (never by a user's file name).
 * Writes stream to a temp file, fsync, then rename: a crash leaves either no blob or a whole one.
 * In memory mode the directory is a private temp dir, so big uploads never sit in RAM either; its
 * blobs die with the process, so they skip the fsync.
 */
export class BlobStore {
  readonly dir: string;
  readonly #ephemeral: boolean;

  private constructor(dir: string, ephemeral: boolean) {
    this.dir = dir;
    this.#ephemeral = ephemeral;
  }

  static async open(dir?: string): Promise<BlobStore> {
    if (dir) {
      await mkdir(dir, { recursive: true });
      return new BlobStore(dir, false);
    }
    return new BlobStore(await mkdtemp(join(tmpdir(), 'csp-mock-blobs-')), true);
  }

  pathOf(blobId: string): string {
    return join(this.dir, blobId);
  }

  async put(source: Readable | Buffer): Promise<StoredBlob> {
    const tmp = this.#tmpPath();
    try {
      if (Buffer.isBuffer(source)) {
        const fh = await open(tmp, 'w');
        try {
          await fh.writeFile(source);
          if (!this.#ephemeral) await fh.sync();
        } finally {
          await fh.close();
        }
      } else {
        await pipeline(source, createWriteStream(tmp));
        await this.#sync(tmp);
      }
      return await this.#commit(tmp);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  /** Copy-on-write block write: a new blob equal to `blobId` with `source` written at `offset`. */
  async writeAt(blobId: string, offset: number, source: Readable | Buffer): Promise<StoredBlob> {
    const tmp = this.#tmpPath();
    try {
      await copyFile(this.pathOf(blobId), tmp);
      const input = Buffer.isBuffer(source) ? Readable.from([source]) : source;
      await pipeline(input, createWriteStream(tmp, { flags: 'r+', start: offset }));
      await this.#sync(tmp);
      return await this.#commit(tmp);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  read(blobId: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.pathOf(blobId), range);
  }

  async delete(blobId: string): Promise<void> {
    await rm(this.pathOf(blobId), { force: true });
  }

  /** Drops temp files and blobs nothing points at (left by a crash between blob and metadata writes). */
  async sweep(referenced: Set<string>): Promise<number> {
    let dropped = 0;
    for (const name of await readdir(this.dir)) {
      if (name.startsWith(TMP_PREFIX) || !referenced.has(name)) {
        await rm(join(this.dir, name), { force: true, recursive: true });
        dropped++;
      }
    }
    return dropped;
  }

  async close(): Promise<void> {
    if (this.#ephemeral) await rm(this.dir, { recursive: true, force: true });
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

  async #commit(tmp: string): Promise<StoredBlob> {
    const blobId = randomBytes(16).toString('hex');
    const { size } = await stat(tmp);
    await rename(tmp, this.pathOf(blobId));
    return { blobId, size };
  }
}
