import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { Writable } from 'node:stream';
import { encodeBody } from './body-encoding.js';
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
 * so a large upload or download is never held whole. `stored()` resolves once everything is written.
 * It never fails the stream it copies: a sidecar that cannot be written (a full disk) is noted in
 * `failure` and the rest of the body is let through unrecorded, so the client still gets all of it.
 */
export class BodyCapture extends Writable {
  readonly #threshold: number;
  readonly #sidecar: () => SidecarTarget;
  readonly #hash = createHash('sha256');
  #chunks: Buffer[] = [];
  #bytes = 0;
  #file?: { stream: WriteStream; target: SidecarTarget };
  #failure: Error | undefined;

  constructor(threshold: number, sidecar: () => SidecarTarget) {
    super();
    this.#threshold = threshold;
    this.#sidecar = sidecar;
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    this.#bytes += chunk.length;
    if (this.#failure) {
      done();
      return;
    }
    this.#hash.update(chunk);
    if (this.#file) {
      this.#file.stream.write(chunk, (err) => this.#settle(err, done));
      return;
    }
    this.#chunks.push(chunk);
    if (this.#bytes <= this.#threshold) {
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

  override _final(done: (err?: Error | null) => void): void {
    if (!this.#file || this.#failure) {
      done();
      return;
    }
    this.#file.stream.end(() => done());
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    this.#file?.stream.destroy();
    done(err);
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** Call after 'finish'. */
  stored(): StoredBody | undefined {
    if (!this.#file) return encodeBody(Buffer.concat(this.#chunks));
    return { file: this.#file.target.relative, bytes: this.#bytes, sha256: this.#hash.digest('hex') };
  }
}
