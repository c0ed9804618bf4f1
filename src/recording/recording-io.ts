import { existsSync, mkdirSync } from 'node:fs';
import { appendFile, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { writeWholeFile } from '../files/whole-file.js';
import { Mutex } from '../turns/mutex.js';
import type { SidecarTarget } from './body-capture.js';
import {
  BASE_URL_TOKEN,
  RECORDING_FORMAT,
  RECORDING_VERSION,
  type RecordingHeader,
  type StoredExchange,
} from './format.js';
import { MAX_EXCHANGES, scanRecording, sidecarDirName } from './recording-read.js';

/** Recordings are made to be committed and shared (credentials are redacted from them): readable by all. */
const RECORDING_MODE = 0o644;

export {
  MAX_EXCHANGES,
  readRecording,
  readRecordingDocument,
  RecordingError,
  sidecarDirName,
  scanRecording,
} from './recording-read.js';

const line = (value: unknown): string => `${JSON.stringify(value)}\n`;

/**
 * Appends exchanges to a recording file, one JSON line each: writing one costs the same however
 * long the recording is, and nothing of the earlier exchanges is held in memory. A killed recorder
 * loses at most the exchange in flight (a torn last line, which readers skip). A failed write (a
 * full disk) stops the recording with one clear message; the proxy goes on answering its clients.
 */
export class RecordingWriter {
  readonly file: string;
  readonly #log: (line: string) => void;
  #nextId: number;
  /** Exchanges in the file (those it held when opened, then those written). */
  #held: number;
  #written = 0;
  #stopped: string | undefined;
  /** Appends run one at a time, in the order exchanges completed. */
  readonly #appends = new Mutex();

  private constructor(file: string, nextId: number, log: (line: string) => void, held = 0) {
    this.file = file;
    this.#nextId = nextId;
    this.#held = held;
    this.#log = log;
  }

  /**
   * A new recording (or, with `append`, one that keeps the exchanges already in the file). A new one
   * is stamped with its creation time (`created`, default now); an appended one keeps its own.
   */
  static async open(
    file: string,
    redacted: string[],
    append = false,
    log: (line: string) => void = () => undefined,
    created: string = new Date().toISOString(),
  ): Promise<RecordingWriter> {
    const absolute = resolve(file);
    mkdirSync(dirname(absolute), { recursive: true });
    const header: RecordingHeader = {
      format: RECORDING_FORMAT,
      version: RECORDING_VERSION,
      baseUrl: BASE_URL_TOKEN,
      redacted,
      created,
    };
    if (!append || !existsSync(absolute)) {
      // A new recording replaces the old one, sidecars included.
      await rm(join(dirname(absolute), sidecarDirName(absolute)), { recursive: true, force: true });
      await writeWholeFile(absolute, (put) => put(line(header)), { mode: RECORDING_MODE });
      return new RecordingWriter(absolute, 1, log);
    }
    // One pass, line by line: the next id, and whether the file must be rewritten as JSON lines once
    // (a version 1 document, a new redacted name, or a torn last line).
    let maxId = 0;
    const scan = await scanRecording(absolute, (e) => (maxId = Math.max(maxId, e.id)));
    const names = [...new Set([...scan.header.redacted, ...redacted])];
    const needsRewrite =
      scan.header.version !== RECORDING_VERSION || names.length !== scan.header.redacted.length || !scan.terminated;
    if (needsRewrite) {
      // Appending does not make a recording newer: it keeps its creation time, or stays of unknown age.
      const { created: _now, ...kept } = header;
      await writeWholeFile(
        absolute,
        async (put) => {
          await put(line({ ...kept, redacted: names, ...(scan.header.created && { created: scan.header.created }) }));
          // The scan hands over exchanges one at a time; each is written after the ones before it, and
          // the first failure stops the writing (kept, so no rejection is left unhandled meanwhile).
          let failure: { err: unknown } | undefined;
          let written = Promise.resolve();
          const write = async (text: string): Promise<void> => {
            if (!failure) await put(text).catch((err: unknown) => void (failure ??= { err }));
          };
          await scanRecording(absolute, (e) => {
            const text = line(e);
            written = written.then(() => write(text));
          }).finally(() => written);
          if (failure) throw failure.err;
        },
        { mode: RECORDING_MODE, temp: `${absolute}.tmp` },
      );
    }
    const nextId = maxId + 1;
    return new RecordingWriter(absolute, nextId, log, scan.count);
  }

  /** Reserves an exchange id (ids follow the order requests arrived; the file keeps completion order). */
  reserveId(): number {
    return this.#nextId++;
  }

  /** A body's sidecar file; the recording names it relative to its own bodies folder. */
  sidecar(id: number, side: 'request' | 'response'): SidecarTarget {
    const relative = `${id}-${side}.bin`;
    return { relative, absolute: join(dirname(this.file), sidecarDirName(this.file), relative) };
  }

  /** Why the recording stopped, if it did. */
  get stopped(): string | undefined {
    return this.#stopped;
  }

  /** Stops the recording: nothing more is written (the exchanges already written stay valid). */
  stop(reason: string): void {
    if (this.#stopped) return;
    this.#stopped = reason;
    this.#log(
      `record: recording stopped: ${reason}; ${this.#written} exchange(s) are in ${this.file}; the proxy keeps answering but records nothing more`,
    );
  }

  /** Appends one completed exchange; resolves once it is on disk (or the recording has stopped). Never rejects. */
  add(exchange: StoredExchange): Promise<void> {
    const text = line(exchange);
    return this.#appends.run(async () => {
      if (this.#stopped) return;
      // A recording past the limit could not be read back: the recorder stops at it.
      if (this.#held >= MAX_EXCHANGES)
        return this.stop(
          `${this.file} holds ${MAX_EXCHANGES.toLocaleString('en-US')} exchanges, the most a recording may hold`,
        );
      try {
        await appendFile(this.file, text);
        this.#written += 1;
        this.#held += 1;
      } catch (err) {
        const e = err as NodeJS.ErrnoException;
        this.stop(`${this.file}: ${e.code === 'ENOSPC' ? 'no space left on device (ENOSPC)' : e.message}`);
      }
    });
  }

  /** Resolves once every write so far is on disk. */
  flush(): Promise<void> {
    return this.#appends.run(() => undefined);
  }
}
