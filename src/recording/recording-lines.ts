import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { FileAccessError, containedPath, maxFileBytes } from '../files/contained-file.js';

/** How much of the file is read at a time. */
const CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;

export interface LinesRead {
  /** Whether the file ends with a newline (a recorder killed mid-write leaves a torn last line without one). */
  terminated: boolean;
}

/**
 * Reads a file line by line, holding one line at a time: memory follows the longest line, not the
 * file. Refuses what readContainedFile refuses (devices, FIFOs, a file over the size cap). `onLine`
 * may return false to stop early; a last line without its newline comes with `terminated` false.
 */
export async function forEachLine(
  file: string,
  onLine: (line: string, lineNumber: number, terminated: boolean) => boolean | void,
  maxBytes = maxFileBytes(),
): Promise<LinesRead> {
  const real = await containedPath(file, undefined);
  const before = await stat(real);
  if (!before.isFile()) throw new FileAccessError(file, 'is not a regular file');
  if (before.size > maxBytes)
    throw new FileAccessError(file, `is ${before.size} bytes, over the limit of ${maxBytes} (CSP_MOCK_MAX_FILE_BYTES)`);
  // O_NONBLOCK: should the path have become a FIFO since the check, opening it does not hang.
  const handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!(await handle.stat()).isFile()) throw new FileAccessError(file, 'is not a regular file');
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let pending: Buffer[] = [];
    let total = 0;
    let lineNumber = 0;
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes)
        throw new FileAccessError(file, `is over the limit of ${maxBytes} bytes (CSP_MOCK_MAX_FILE_BYTES)`);
      let start = 0;
      for (let at = chunk.indexOf(NEWLINE, 0); at >= 0 && at < bytesRead; at = chunk.indexOf(NEWLINE, start)) {
        const piece = chunk.subarray(start, at);
        const line = pending.length ? Buffer.concat([...pending, piece]) : piece;
        pending = [];
        start = at + 1;
        lineNumber += 1;
        if (onLine(line.toString('utf8'), lineNumber, true) === false) return { terminated: true };
      }
      // The rest of the chunk starts the next line; the chunk buffer is reused, so it is copied.
      if (start < bytesRead) pending.push(Buffer.from(chunk.subarray(start, bytesRead)));
    }
    if (pending.length === 0) return { terminated: true };
    onLine(Buffer.concat(pending).toString('utf8'), lineNumber + 1, false);
    return { terminated: false };
  } finally {
    await handle.close();
  }
}
