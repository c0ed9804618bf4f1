import { randomBytes } from 'node:crypto';
import { link, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes all of `data` at the handle's position. One write may take fewer bytes than asked (a disk
 * filling up takes what fits and says so only in the count), so it loops until every byte is written
 * or a write fails (ENOSPC once nothing fits).
 */
export async function writeAll(fh: FileHandle, data: Buffer): Promise<void> {
  let done = 0;
  while (done < data.length) done += (await fh.write(data, done, data.length - done)).bytesWritten;
}

/** Makes a rename or link in `dir` durable. */
export async function syncFolder(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

export interface WholeFileOptions {
  /** The file's mode, whatever the umask (default 0600: private to the user). */
  mode?: number;
  /** The temp file beside `file` (default `.<name>.<pid>.<random>.tmp`); a start-up sweep may know its name. */
  temp?: string;
  /** Called with the whole, synced temp file just before it takes the file's place (a failpoint, a reopen). */
  beforePublish?: (temp: string) => void | Promise<void>;
  /** 'replace' (default) renames over `file`; 'keep' links, so a file already there stays (publish returns false). */
  publish?: 'replace' | 'keep';
}

/**
 * Writes `file` whole or not at all: `write` puts the bytes into a temp file beside it (each put loops
 * until all its bytes are written), the temp file is fsynced and renamed over `file`, then the folder
 * is fsynced. On any failure (a full disk included) the temp file is removed and `file` is as it was.
 * Every file the mock depends on (the state snapshot and log, the CA, recordings it rewrites) is
 * replaced through here. Resolves with the bytes written and whether the file was published.
 */
export async function writeWholeFile(
  file: string,
  write: (put: (data: Buffer | string) => Promise<void>) => Promise<void>,
  options: WholeFileOptions = {},
): Promise<{ bytes: number; published: boolean }> {
  const mode = options.mode ?? 0o600;
  const temp =
    options.temp ?? join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  // A leftover temp file (or anything placed under its name) goes first: the write creates its own, exclusively.
  await rm(temp, { force: true });
  const fh = await open(temp, 'wx', mode);
  let bytes = 0;
  let published = false;
  try {
    try {
      await fh.chmod(mode);
      await write(async (data) => {
        const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
        await writeAll(fh, buf);
        bytes += buf.length;
      });
      await fh.sync();
    } finally {
      await fh.close();
    }
    await options.beforePublish?.(temp);
    if (options.publish === 'keep') {
      try {
        await link(temp, file);
        published = true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      await rm(temp, { force: true });
    } else {
      await rename(temp, file);
      published = true;
    }
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  await syncFolder(dirname(file));
  return { bytes, published };
}
