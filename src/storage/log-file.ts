import { open, readFile, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { syncFolder, writeAll, writeWholeFile } from '../files/whole-file.js';
import { failpoint } from './failpoints.js';
import { applyChangeSet, type ChangeSet } from './persistence.js';
import { isRecord } from './state-file.js';
import { TagChangeApplier } from './tag-changes.js';
import type { AnyState } from './state-maps.js';
import { toStorageError } from './storage-errors.js';

/** The append-only log beside a state file: one JSON line per committed change set. */
export const logFileOf = (file: string): string => `${file}.log`;

/** One line of the log: the change set and its sequence number (1, 2, 3, ... across compactions). */
export type LogRecord = ChangeSet & { seq: number };

export interface ReplayResult {
  /** The last sequence number applied (or `afterSeq` when none was). */
  seq: number;
  /** Bytes of whole records: a torn tail starts here. */
  goodLength: number;
  /** Size of a torn last line that was dropped (0 when none). */
  tornBytes: number;
  applied: number;
}

function isTagChange(t: unknown): boolean {
  if (!isRecord(t) || typeof t['id'] !== 'string') return false;
  return typeof (t['add'] ?? t['remove']) === 'string' && (t['add'] === undefined) !== (t['remove'] === undefined);
}

function isQueueChange(q: unknown): boolean {
  if (!isRecord(q) || typeof q['key'] !== 'string') return false;
  if ('put' in q) return isRecord(q['put']);
  if ('append' in q) return Array.isArray(q['append']);
  if ('take' in q) return typeof q['take'] === 'number';
  return q['drop'] === true;
}

function recordProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'not an object';
  if (typeof value['seq'] !== 'number' || !Number.isInteger(value['seq'])) return 'no whole-number "seq"';
  for (const key of ['nodes', 'tags', 'removed', 'users', 'queues'] as const) {
    if (value[key] !== undefined && !Array.isArray(value[key])) return `"${key}" is not a list`;
  }
  if (((value['nodes'] as unknown[] | undefined) ?? []).some((n) => !isRecord(n) || typeof n['id'] !== 'string'))
    return 'a node without an id';
  if (((value['tags'] as unknown[] | undefined) ?? []).some((t) => !isTagChange(t)))
    return 'a tag change that is not {"id", "add"} or {"id", "remove"} with strings';
  if (((value['removed'] as unknown[] | undefined) ?? []).some((id) => typeof id !== 'string'))
    return 'a removed id that is not a string';
  if (
    ((value['users'] as unknown[] | undefined) ?? []).some(
      (u) => !isRecord(u) || typeof u['login'] !== 'string' || !isRecord(u['user']),
    )
  ) {
    return 'a malformed user';
  }
  if (((value['queues'] as unknown[] | undefined) ?? []).some((q) => !isQueueChange(q)))
    return 'a queue change that is not {"key"} with one of "put" (an object), "drop", "append" (a list) or "take" (a number)';
  return undefined;
}

/**
 * Applies to `state` every whole record of the log after `afterSeq`, in order. The last line may be
 * torn (a crash mid-append): it is not applied and reported. Anything else that does not read as a
 * record, or a gap in the sequence, is an Error naming the file and line: acknowledged writes are
 * never dropped silently.
 */
export async function replayLog(path: string, state: AnyState, afterSeq: number): Promise<ReplayResult> {
  return replayLogBytes(path, await readLogBytes(path), state, afterSeq);
}

/** The log's bytes (empty when it does not exist). */
export async function readLogBytes(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0);
    throw new Error(`cannot read state log ${path}: ${(err as Error).message}`);
  }
}

/** replayLog over bytes already read. */
export function replayLogBytes(path: string, buf: Buffer, state: AnyState, afterSeq: number): ReplayResult {
  let seq = afterSeq;
  let applied = 0;
  let start = 0;
  // One applier for the whole replay: a run of tag adds to one node copies its list once.
  const tags = new TagChangeApplier();
  for (let line = 1; start < buf.length; line++) {
    const end = buf.indexOf(0x0a, start);
    if (end < 0) return { seq, goodLength: start, tornBytes: buf.length - start, applied };
    let value: unknown;
    try {
      value = JSON.parse(buf.toString('utf8', start, end));
    } catch (err) {
      throw new Error(
        `state log ${path} is corrupt at line ${line} (${(err as Error).message}); it holds acknowledged changes, so the server will not start over it`,
      );
    }
    const problem = recordProblem(value);
    if (problem) throw new Error(`state log ${path} is corrupt at line ${line}: ${problem}`);
    const record = value as LogRecord;
    if (record.seq > afterSeq) {
      if (record.seq !== seq + 1)
        throw new Error(
          `state log ${path} line ${line} has record ${record.seq} where ${seq + 1} was expected (a record is missing)`,
        );
      applyChangeSet(state, record, tags);
      seq = record.seq;
      applied++;
    }
    start = end + 1;
  }
  return { seq, goodLength: start, tornBytes: 0, applied };
}

/** The two calls that put bytes on disk; a test may replace them to inject a failure (a full disk). */
export interface LogIo {
  write(fh: FileHandle, data: Buffer): Promise<void>;
  sync(fh: FileHandle): Promise<void>;
}

export const realLogIo: LogIo = {
  write: writeAll,
  sync: (fh) => fh.datasync(),
};

/**
 * Appends change sets to the log. One group at a time (the caller serialises): the group is one
 * write and one fsync, and its records land (and fail) together. A group that fails is cut off the
 * file again (truncate to the last good length) and rejects with a StorageError.
 */
export class LogAppender {
  readonly path: string;
  readonly #io: LogIo;
  #fh: FileHandle;
  #length: number;
  #seq: number;
  /** A failed group whose bytes could not be cut off yet: fixed before the next write. */
  #dirty = false;

  private constructor(path: string, fh: FileHandle, length: number, seq: number, io: LogIo) {
    this.path = path;
    this.#fh = fh;
    this.#length = length;
    this.#seq = seq;
    this.#io = io;
  }

  /** Opens the log for appending, cutting anything past `length` (a torn record) away first. */
  static async open(path: string, length: number, seq: number, io: LogIo = realLogIo): Promise<LogAppender> {
    const fh = await open(path, 'a', 0o600);
    try {
      // Private whatever the umask, also a log an older version made.
      await fh.chmod(0o600);
      const { size } = await fh.stat();
      if (size !== length) {
        await fh.truncate(length);
        await fh.datasync();
      }
    } catch (err) {
      await fh.close();
      throw err;
    }
    await syncFolder(dirname(path));
    return new LogAppender(path, fh, length, seq, io);
  }

  get seq(): number {
    return this.#seq;
  }

  /** Bytes of durable records in the log. */
  get length(): number {
    return this.#length;
  }

  /** Appends the change sets as consecutive records, with one write and one fsync; resolves after the fsync. */
  async append(changes: readonly ChangeSet[]): Promise<void> {
    if (changes.length === 0) return;
    let data = Buffer.alloc(0);
    try {
      const lines = changes.map((change, i) => `${JSON.stringify({ seq: this.#seq + i + 1, ...change })}\n`);
      data = Buffer.from(lines.join(''), 'utf8');
      if (this.#dirty) await this.#cutBack();
      await this.#io.write(this.#fh, data);
      failpoint('log-written-before-sync');
      await this.#io.sync(this.#fh);
    } catch (err) {
      // Nothing of this group may stay durable: cut the file back to its last good length.
      await this.#cutBack().catch(() => undefined);
      throw toStorageError(err, `cannot write the state log ${this.path}`);
    }
    this.#length += data.length;
    this.#seq += changes.length;
  }

  /**
   * Keeps only the records from byte `offset` on (those a new snapshot does not include),
   * atomically: the rest is written to a temp file, synced and renamed over the log.
   */
  async keepFrom(offset: number): Promise<void> {
    const tail = offset >= this.#length ? Buffer.alloc(0) : await this.#readRange(offset, this.#length);
    let next: FileHandle | undefined;
    try {
      await writeWholeFile(this.path, (put) => put(tail), {
        temp: `${this.path}.tmp`,
        beforePublish: async (temp) => {
          // Opened before the rename, so appends follow the new file whatever happens next.
          next = await open(temp, 'a');
          failpoint('log-rewrite-before-rename');
        },
      });
    } catch (err) {
      await next?.close();
      throw err;
    }
    const old = this.#fh;
    this.#fh = next!;
    this.#length = tail.length;
    await old.close().catch(() => undefined);
  }

  /** Clean stop: closes the file. `remove` deletes it (a snapshot holds all). */
  async close(remove: boolean): Promise<void> {
    await this.#fh.close();
    if (remove) {
      await rm(this.path, { force: true });
      await syncFolder(dirname(this.path));
    }
  }

  async #readRange(start: number, end: number): Promise<Buffer> {
    const fh = await open(this.path, 'r');
    try {
      const buf = Buffer.alloc(end - start);
      let done = 0;
      while (done < buf.length) {
        const { bytesRead } = await fh.read(buf, done, buf.length - done, start + done);
        if (bytesRead === 0) throw new Error(`state log ${this.path} ended early`);
        done += bytesRead;
      }
      return buf;
    } finally {
      await fh.close();
    }
  }

  async #cutBack(): Promise<void> {
    this.#dirty = true;
    await this.#fh.truncate(this.#length);
    await this.#fh.datasync();
    this.#dirty = false;
  }
}
