import { constants, type Stats } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * The largest file the server reads into memory (scenario files, fixtures, recordings and their
 * sidecars): 256 MiB, or CSP_MOCK_MAX_FILE_BYTES.
 */
export function maxFileBytes(): number {
  const configured = Number(process.env['CSP_MOCK_MAX_FILE_BYTES']);
  return Number.isSafeInteger(configured) && configured > 0 ? configured : 256 * 1024 * 1024;
}

/** A file the server will not read, and why (the message names the file, never its contents). */
export class FileAccessError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`${file}: ${reason}`);
    this.name = 'FileAccessError';
  }
}

export interface ReadOptions {
  /** The file's real path (symlinks resolved) must lie inside this folder's real path. */
  within?: string;
  /** Default maxFileBytes(). */
  maxBytes?: number;
}

/** True when `path` is `folder` itself or lies beneath it (both already real paths). */
function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The first read of a file whose metadata tells no size (such as a /proc entry). */
const MIN_READ_BYTES = 64 * 1024;

function kindOf(s: Stats): string {
  if (s.isDirectory()) return 'a directory';
  if (s.isFIFO()) return 'a FIFO';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  if (s.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** The real path of `path`, checked to stay inside `within` (symlinks included). */
export async function containedPath(path: string, within: string | undefined): Promise<string> {
  if (within !== undefined && !isInside(resolve(path), resolve(within))) {
    throw new FileAccessError(path, `is outside ${resolve(within)} (files may only be named inside it)`);
  }
  let real: string;
  try {
    real = await realpath(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new FileAccessError(path, code === 'ENOENT' ? 'no such file' : `cannot be opened (${code ?? 'error'})`);
  }
  if (within !== undefined) {
    const folder = await realpath(within).catch(() => within);
    if (!isInside(real, folder))
      throw new FileAccessError(path, `is outside ${folder} (files may only be named inside it)`);
  }
  return real;
}

/**
 * Reads a regular file whole, refusing what must not be read into memory: a path outside `within`,
 * devices, FIFOs, sockets and directories, and anything over the size cap (checked before reading,
 * and again while reading, for files such as /proc entries whose size the metadata does not tell).
 */
export async function readContainedFile(path: string, options: ReadOptions = {}): Promise<Buffer> {
  const maxBytes = options.maxBytes ?? maxFileBytes();
  const real = await containedPath(path, options.within);
  const before = await stat(real);
  if (!before.isFile()) throw new FileAccessError(path, `is ${kindOf(before)}, not a regular file`);
  if (before.size > maxBytes)
    throw new FileAccessError(path, `is ${before.size} bytes, over the limit of ${maxBytes} (CSP_MOCK_MAX_FILE_BYTES)`);
  // O_NONBLOCK: should the path have become a FIFO since the check, opening it does not hang.
  const handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const now = await handle.stat();
    if (!now.isFile()) throw new FileAccessError(path, `is ${kindOf(now)}, not a regular file`);
    // One buffer sized by the metadata (a byte more, to see growth), doubled while the file goes on:
    // a zeroed 1 MiB per read would be most of the garbage of reading a small scenario file.
    let bytes = Buffer.allocUnsafe(Math.min(maxBytes + 1, Math.max(now.size + 1, MIN_READ_BYTES)));
    let total = 0;
    for (;;) {
      if (total === bytes.length) {
        const grown = Buffer.allocUnsafe(Math.min(maxBytes + 1, bytes.length * 2));
        bytes.copy(grown, 0, 0, total);
        bytes = grown;
      }
      const { bytesRead } = await handle.read(bytes, total, bytes.length - total, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes)
        throw new FileAccessError(path, `is over the limit of ${maxBytes} bytes (CSP_MOCK_MAX_FILE_BYTES)`);
    }
    return bytes.subarray(0, total);
  } finally {
    await handle.close();
  }
}
