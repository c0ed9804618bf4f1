import { createHash } from 'node:crypto';
import { constants, type ReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { FileAccessError, containedPath, maxFileBytes, readContainedFile } from '../files/contained-file.js';
import { EMPTY_BODY, inlineBytes } from './body-encoding.js';
import type { BodyFile, StoredBody } from './format.js';
import { RecordingError, sidecarDirName, sidecarPath } from './recording-names.js';

/**
 * Reads bodies for one recording: a sidecar must be a regular file inside `<name>.bodies/` (symlinks
 * resolved), of the size the recording states and with its sha256. `load` reads it (all bodies
 * loaded together stay under the size cap); `locate` only checks it and leaves it on disk, to be
 * streamed when it is served (openBodyFile checks the sha256 as it goes).
 */
export class SidecarReader {
  readonly #file: string;
  readonly #folder: string;
  readonly #cap = maxFileBytes();
  #total = 0;

  constructor(recordingFile: string) {
    this.#file = recordingFile;
    this.#folder = join(dirname(recordingFile), sidecarDirName(recordingFile));
  }

  /** The body's bytes, sidecars read in. */
  async load(body: StoredBody | undefined, what: string): Promise<Buffer> {
    const located = await this.locate(body, what);
    const bytes = Buffer.isBuffer(located) ? located : await this.#read(located, body as { file: string }, what);
    this.count(bytes);
    return bytes;
  }

  /** Counts bytes held in memory against the cap. */
  count(bytes: Buffer): void {
    this.#total += bytes.length;
    if (this.#total > this.#cap)
      throw new RecordingError(this.#file, `bodies total more than ${this.#cap} bytes (CSP_MOCK_MAX_FILE_BYTES)`);
  }

  /** An inline body's bytes, or a sidecar checked (inside the folder, a regular file of the stated size) but not read. */
  async locate(body: StoredBody | undefined, what: string): Promise<Buffer | BodyFile> {
    // The body's shape was checked against the recording's schema as it was read.
    const inline = inlineBytes(body);
    if (inline || !body || !('file' in body)) return inline ?? EMPTY_BODY;
    const path = sidecarPath(this.#folder, body.file);
    try {
      await containedPath(path, this.#folder);
      const info = await stat(path);
      if (!info.isFile()) throw new FileAccessError(path, 'is not a regular file');
      if (info.size !== body.bytes)
        this.#refuse(body.file, what, `is ${info.size} bytes, the recording says ${body.bytes}`);
    } catch (err) {
      throw this.#fileError(err, path, body.file, what);
    }
    return { path, folder: this.#folder, bytes: body.bytes, sha256: body.sha256.toLowerCase() };
  }

  async #read(located: BodyFile, body: { file: string }, what: string): Promise<Buffer> {
    if (located.bytes > this.#cap - this.#total)
      this.#refuse(
        body.file,
        what,
        `of ${located.bytes} bytes is over the limit of ${this.#cap} (CSP_MOCK_MAX_FILE_BYTES)`,
      );
    let bytes: Buffer;
    try {
      bytes = await readContainedFile(located.path, { within: this.#folder, maxBytes: located.bytes });
    } catch (err) {
      throw this.#fileError(err, located.path, body.file, what);
    }
    if (createHash('sha256').update(bytes).digest('hex') !== located.sha256)
      this.#refuse(body.file, what, 'does not match its sha256');
    return bytes;
  }

  #refuse(reference: string, what: string, problem: string): never {
    throw new RecordingError(this.#file, `${what}: sidecar "${reference}" ${problem}`);
  }

  #fileError(err: unknown, path: string, reference: string, what: string): Error {
    if (!(err instanceof FileAccessError)) return err as Error;
    const problem = err.message
      .slice(path.length + 2)
      .replace(/\(files may only be named inside it\)/, '(sidecars stay inside it)');
    return new RecordingError(this.#file, `${what}: sidecar "${reference}" ${problem}`);
  }
}

/**
 * A sidecar's bytes as a stream, opened again when served (still inside its folder, still a regular
 * file). The last chunk is held until the sha256 matches, so a sidecar changed since the recording
 * was read ends the answer with an error instead of sending other bytes as the recorded ones.
 */
export async function openBodyFile(body: BodyFile): Promise<NodeJS.ReadableStream & ReadStream> {
  const real = await containedPath(body.path, body.folder);
  const handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size !== body.bytes)
      throw new FileAccessError(
        body.path,
        `changed since the recording was read (${info.size} bytes, expected ${body.bytes})`,
      );
  } catch (err) {
    await handle.close();
    throw err;
  }
  return handle.createReadStream({ autoClose: true }) as NodeJS.ReadableStream & ReadStream;
}

/** Passes bytes through and fails at the end, before the last chunk, when their sha256 is not `expected`. */
export class Sha256Check extends Transform {
  readonly #hash = createHash('sha256');
  readonly #expected: string;
  #held: Buffer | undefined;

  constructor(expected: string) {
    super();
    this.#expected = expected;
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.#hash.update(chunk);
    const previous = this.#held;
    this.#held = chunk;
    done(null, previous);
  }

  override _flush(done: TransformCallback): void {
    if (this.#hash.digest('hex') !== this.#expected) {
      done(new Error('the sidecar does not match its sha256'));
      return;
    }
    done(null, this.#held);
  }
}

/** A sidecar's bytes, read whole (for the few bodies that must be rewritten, such as links in XML). */
export async function readBodyFile(body: BodyFile): Promise<Buffer> {
  const bytes = await readContainedFile(body.path, { within: body.folder, maxBytes: body.bytes });
  if (createHash('sha256').update(bytes).digest('hex') !== body.sha256)
    throw new FileAccessError(body.path, 'does not match its sha256');
  return bytes;
}
