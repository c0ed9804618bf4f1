import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { Writable } from 'node:stream';
import { encodeBody } from './body-encoding.js';
import type { BodyRedactor } from './body-redactor.js';
import type { StoredBody } from './format.js';

/** Bodies up to this many bytes live inside the recording; larger ones go to a sidecar file. */
export const DEFAULT_SIDECAR_THRESHOLD = 64 * 1024;

export interface SidecarTarget {
  /** Where to write the file. */
  absolute: string;
  /** What the recording stores (relative to the recording's bodies folder). */
  relative: string;
}

/**
 * A sink that keeps a body in memory until it passes the threshold, then streams it to a sidecar,
 * so a large upload or download is never held whole. With a redactor, what is kept (inline or in the
 * sidecar) is the redacted body, so a secret never reaches the disk. `stored()` resolves once everything
 * is written. It never fails the stream it copies: a sidecar that cannot be written (a full disk) is noted
 * in `failure` and the rest of the body is let through unrecorded, so the client still gets all of it.
 */
export class BodyCapture extends Writable {
  readonly #threshold: number;
  readonly #sidecar: () => SidecarTarget;
  readonly #redactor: BodyRedactor | undefined;
  readonly #hash = createHash('sha256');
  #chunks: Buffer[] = [];
  /** Bytes received, and bytes kept (after redaction). */
  #bytes = 0;
  #kept = 0;
  #file?: { stream: WriteStream; target: SidecarTarget };
  #failure: Error | undefined;

  constructor(threshold: number, sidecar: () => SidecarTarget, redactor?: BodyRedactor) {
    super();
    this.#threshold = threshold;
    this.#sidecar = sidecar;
    this.#redactor = redactor;
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    this.#bytes += chunk.length;
    if (this.#failure) {
      done();
      return;
    }
    this.#keep(this.#redactor ? this.#redactor.push(chunk) : chunk, done);
  }

  /** Bytes as stored: into the hash, and into memory or, once past the threshold, the sidecar. */
  #keep(bytes: Buffer, done: (err?: Error | null) => void): void {
    if (this.#failure || bytes.length === 0) {
      done();
      return;
    }
    this.#kept += bytes.length;
    this.#hash.update(bytes);
    if (this.#file) {
      this.#file.stream.write(bytes, (err) => this.#settle(err, done));
      return;
    }
    this.#chunks.push(bytes);
    if (this.#kept <= this.#threshold) {
      done();
      return;
    }
    const target = this.#sidecar();
    try {
      mkdirSync(dirname(target.absolute), { recursive: true });
    } catch (err) {
      this.#settle(err as Error, done);
      return;
    }
    const stream = createWriteStream(target.absolute);
    stream.on('error', (err) => this.#fail(err));
    this.#file = { stream, target };
    const held = Buffer.concat(this.#chunks);
    this.#chunks = [];
    stream.write(held, (err) => this.#settle(err, done));
  }

  #fail(err: Error): void {
    if (this.#failure) return;
    this.#failure = new Error(
      `${this.#file?.target.absolute ?? 'sidecar'}: ${(err as NodeJS.ErrnoException).code === 'ENOSPC' ? 'no space left on device (ENOSPC)' : err.message}`,
    );
    this.#chunks = [];
    this.#file?.stream.destroy();
  }

  #settle(err: Error | null | undefined, done: () => void): void {
    if (err) this.#fail(err);
    done();
  }

  /** Why the body could not be recorded (then `stored()` must not be used). */
  get failure(): Error | undefined {
    return this.#failure;
  }

  /** The body was too large to redact (see MAX_REDACTED_BODY): none of it is kept. */
  get omitted(): boolean {
    return this.#redactor?.omitted ?? false;
  }

  override _final(done: (err?: Error | null) => void): void {
    const rest = this.#failure ? undefined : this.#redactor?.end();
    this.#keep(rest ?? Buffer.alloc(0), () => {
      if (!this.#file || this.#failure) {
        done();
        return;
      }
      this.#file.stream.end(() => done());
    });
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    this.#file?.stream.destroy();
    done(err);
  }

  /** Bytes received (before redaction). */
  get bytes(): number {
    return this.#bytes;
  }

  /** Call after 'finish'. */
  stored(): StoredBody | undefined {
    if (this.omitted) return undefined;
    if (!this.#file) return encodeBody(Buffer.concat(this.#chunks));
    return { file: this.#file.target.relative, bytes: this.#kept, sha256: this.#hash.digest('hex') };
  }
}
