import { mkdir, rm } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { dirname } from 'node:path';
import { Low } from 'lowdb';
import { acquireLock, type HeldLock } from './lock-file.js';
import { failpoint } from './failpoints.js';
import { LogAppender, logFileOf, readLogBytes, realLogIo, replayLog, replayLogBytes, type LogIo } from './log-file.js';
import { Mutex } from '../turns/mutex.js';
import { StorageError, type ChangeSet, type LoadedState, type StatePersistence } from './persistence.js';
import type { StateData } from './schema.js';
import { SnapshotFile } from './snapshot-file.js';
import { dropStateTempFile, stateMapsProblem } from './state-file.js';
import { emptyStateMaps, stateDocumentOf, type AnyState, type StateMaps } from './state-maps.js';
import { toStorageError } from './storage-errors.js';

/** The log is compacted once it is larger than this and than the snapshot (so cost stays O(change)). */
const MIN_COMPACT_BYTES = 4 * 1024 * 1024;

export interface StatePersistenceOptions {
  /**
   * The caller's current state as a plain document; called only after load() resolved and the
   * caller applied it. The caller applies each change synchronously once its commit resolved.
   */
  snapshot: () => StateData;
  /** Where compaction failures and the like are reported. */
  log?: (line: string) => void;
  /** Compact once the log is larger than this many bytes (default: max(4 MiB, snapshot size)). */
  compactAfterBytes?: number;
  /** Told how far the snapshot has been read at load (bytes of its size), a MiB at a time and at its end. */
  onRead?: ((done: number, total: number) => void) | undefined;
  /** Tests only: the log's write and fsync, to inject a full disk. */
  logIo?: LogIo;
}

/** A state with no user: null-prototype maps, since logins and ids are user-given keys. */
export function emptyPlainState(): StateData {
  return {
    schema: 1,
    users: Object.create(null) as StateData['users'],
    nodes: Object.create(null) as StateData['nodes'],
  };
}

/**
 * The durable store behind the domain: with a file, a lowdb JSON snapshot plus an append-only log of
 * change sets beside it (see the README's persistence section); without one, the same interface in memory.
 */
export function openStatePersistence(file: string | undefined, options: StatePersistenceOptions): StatePersistence {
  return file === undefined ? new MemoryStatePersistence() : new FileStatePersistence(file, options);
}

class MemoryStatePersistence implements StatePersistence {
  readonly file = undefined;
  async load(): Promise<LoadedState> {
    return { state: emptyPlainState(), notes: [] };
  }
  commit(_group: readonly ChangeSet[]): Promise<void> {
    return Promise.resolve();
  }
  replace(_state: StateData): Promise<void> {
    return Promise.resolve();
  }
  async close(): Promise<void> {}
}

class FileStatePersistence implements StatePersistence {
  readonly file: string;
  readonly #options: StatePersistenceOptions;
  readonly #adapter: SnapshotFile;
  readonly #db: Low<AnyState>;
  #lock: HeldLock | undefined;
  #log: LogAppender | undefined;
  /** Appends, compaction steps, replace and close touch the log one at a time. */
  readonly #logTurn = new Mutex();
  /** The compaction under way: its snapshot is written outside the log's turn, so replace and close wait for it. */
  #compaction: Promise<void> | undefined;
  /** After a failed compaction, the log length at which to try again. */
  #retryAt = 0;
  #closed = false;

  constructor(file: string, options: StatePersistenceOptions) {
    this.file = file;
    this.#options = options;
    this.#adapter = new SnapshotFile(file, options.onRead);
    this.#db = new Low<AnyState>(this.#adapter, emptyStateMaps());
  }

  async load(): Promise<LoadedState> {
    if (this.#lock) throw new Error(`state file ${this.file} is already loaded`);
    // A new state's folder is made (private) before its lock can be; an existing file's folder is left as it is.
    await mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
    const lock = await acquireLock(this.file);
    this.#lock = lock;
    try {
      const notes = lock.note ? [lock.note] : [];
      const logFile = logFileOf(this.file);
      await dropStateTempFile(this.file);
      await rm(`${logFile}.tmp`, { force: true });
      await this.#db.read();
      const existed = this.#adapter.bytes > 0;
      // The adapter reads Maps; without a file, the default is empty Maps too.
      const state = this.#db.data as StateMaps;
      this.#db.data = emptyPlainState();
      const replay = await replayLog(logFile, state, this.#adapter.seq);
      if (replay.tornBytes > 0) {
        notes.push(
          `dropped the torn last record of ${logFile} (${replay.tornBytes} bytes): a commit cut short by a crash, never acknowledged`,
        );
      }
      if (replay.applied > 0) {
        const problem = stateMapsProblem(state);
        if (problem)
          throw new Error(`state file ${this.file} with its log ${logFile} is not a csp-mock state: ${problem}`);
      }
      if (!existed) {
        // The state file exists from the first start on, so a user always finds it.
        await this.#writeSnapshot(state, replay.seq);
      }
      this.#log = await LogAppender.open(logFile, replay.goodLength, replay.seq, this.#options.logIo ?? realLogIo);
      return { state, notes };
    } catch (err) {
      this.#lock = undefined;
      await lock.release();
      throw err;
    }
  }

  commit(group: readonly ChangeSet[]): Promise<void> {
    const log = this.#log;
    if (!log || this.#closed) {
      return Promise.reject(
        new StorageError('io', `the state file ${this.file} is ${this.#closed ? 'closed' : 'not loaded yet'}`),
      );
    }
    return this.#logTurn.run(async () => {
      await log.append(group);
      failpoint('log-synced-before-answer');
      this.#maybeCompact();
    });
  }

  async replace(state: StateData): Promise<void> {
    const log = this.#log;
    if (!log || this.#closed) throw new StorageError('io', `the state file ${this.file} is not open`);
    // A compaction's older snapshot must not land after this one.
    await this.#compaction;
    // Commits wait meanwhile: a replace is all or nothing, and nothing may land between.
    await this.#logTurn.run(async () => {
      await this.#writeSnapshot(state, log.seq);
      failpoint('switch-snapshot-before-log-cut');
      // The snapshot now covers every record in the log: they are skipped at load even if this fails.
      await log
        .keepFrom(log.length)
        .catch((err: unknown) => this.#report(`could not empty ${log.path} after a replace`, err));
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const log = this.#log;
    const lock = this.#lock;
    this.#log = undefined;
    this.#lock = undefined;
    try {
      if (log) {
        await this.#compaction;
        // After every append, compaction step and replace queued before it.
        await this.#logTurn.run(async () => {
          let written = log.length === 0;
          if (!written) {
            await nextTurn();
            written = await Promise.resolve()
              .then(() => this.#writeSnapshot(this.#options.snapshot(), log.seq))
              .then(
                () => true,
                (err: unknown) => (
                  this.#report('could not write the final snapshot; the log keeps every change', err),
                  false
                ),
              );
          }
          // Tidying up must not fail a stop: the state on disk is whole either way.
          await log.close(written).catch((err: unknown) => this.#report(`could not close ${log.path}`, err));
        });
      }
    } finally {
      await lock?.release();
    }
  }

  #bound(): number {
    return this.#options.compactAfterBytes ?? Math.max(MIN_COMPACT_BYTES, this.#adapter.bytes);
  }

  #maybeCompact(): void {
    const log = this.#log;
    if (!log || this.#closed || this.#compaction || log.length <= this.#bound() || log.length < this.#retryAt) return;
    this.#compaction = this.#compact(log)
      .catch((err: unknown) => {
        this.#retryAt = log.length + this.#bound();
        this.#report('compaction failed; the log keeps every change and grows until the next try', err);
      })
      .finally(() => {
        this.#compaction = undefined;
      });
  }

  /**
   * A new snapshot while commits go on: taken between two appends, once the callers applied what
   * resolved, so it includes every record up to `seq`; then the log keeps only the later records.
   */
  async #compact(log: LogAppender): Promise<void> {
    const started = await this.#logTurn.run(async () => {
      if (this.#closed) return undefined;
      // One turn, so the caller has applied the append that just resolved before the state is taken.
      await nextTurn();
      // Wrapped, so the write runs on while appends go on, and its failure is awaited below.
      return { offset: log.length, writing: this.#writeSnapshot(this.#options.snapshot(), log.seq).then(() => null) };
    });
    if (!started) return;
    await started.writing;
    failpoint('compaction-snapshot-before-log-cut');
    await this.#logTurn.run(() => log.keepFrom(started.offset));
  }

  /** Through lowdb: the adapter writes atomically (temp, fsync, rename, fsync of the folder). */
  async #writeSnapshot(state: AnyState, seq: number): Promise<void> {
    this.#adapter.seq = seq;
    this.#db.data = state;
    try {
      await this.#db.write();
    } catch (err) {
      throw toStorageError(err, `cannot write the state file ${this.file}`);
    } finally {
      this.#db.data = emptyPlainState();
    }
  }

  #report(what: string, err: unknown): void {
    this.#options.log?.(`${what}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * What a start would load, without taking the lock or changing anything (for checks and tools):
 * the snapshot plus every whole record of the log, as a document; undefined when there is no state file yet.
 */
export async function readDurableState(
  file: string,
): Promise<{ state: StateData; seq: number; tornBytes: number } | undefined> {
  // The log first: a compaction running meanwhile then only makes the snapshot newer, never the log.
  const log = await readLogBytes(logFileOf(file));
  const adapter = new SnapshotFile(file);
  const snapshot = await adapter.read();
  const state = snapshot ?? emptyStateMaps();
  const replay = replayLogBytes(logFileOf(file), log, state, adapter.seq);
  if (!snapshot && replay.applied === 0) return undefined;
  return { state: stateDocumentOf(state), seq: replay.seq, tornBytes: replay.tornBytes };
}
