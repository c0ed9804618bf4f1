import { Duplex } from 'node:stream';

/** An error as a Node client sees it on a real connection ("socket hang up", "read ECONNRESET"). */
export function connectionError(message: string): Error {
  return Object.assign(new Error(message), { code: 'ECONNRESET' });
}

/**
 * One end of an in-memory connection: what it writes, its peer reads. Besides the stream it offers
 * what a server, and every fault of ours, uses of a net.Socket: destroySoon (close after the last
 * byte), resetAndDestroy (the peer sees ECONNRESET), setTimeout (an idle timer emitting 'timeout'),
 * setNoDelay and setKeepAlive; so any code written against a socket runs on it unchanged.
 */
export class InProcessSocket extends Duplex {
  #peer: InProcessSocket | undefined;
  #idleMs = 0;
  #idleTimer: NodeJS.Timeout | undefined;
  /** Set when this end was reset: the peer then fails with ECONNRESET instead of seeing an orderly end. */
  #reset = false;
  readonly remoteAddress = '127.0.0.1';
  readonly remoteFamily = 'IPv4';
  readonly localAddress = '127.0.0.1';

  /** Two connected ends. */
  static pair(): [InProcessSocket, InProcessSocket] {
    const a = new InProcessSocket();
    const b = new InProcessSocket();
    a.#peer = b;
    b.#peer = a;
    return [a, b];
  }

  private constructor() {
    super({ allowHalfOpen: false });
  }

  get timeout(): number {
    return this.#idleMs;
  }

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    this.#touch();
    const peer = this.#peer;
    if (peer) {
      peer.#touch();
      peer.push(chunk);
    }
    done();
  }

  override _final(done: (err?: Error | null) => void): void {
    this.#peer?.push(null);
    done();
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    clearTimeout(this.#idleTimer);
    const peer = this.#peer;
    // A side that goes away ends the other's input, as a closed socket would; a reset fails it.
    if (peer && !peer.destroyed) {
      if (this.#reset) peer.destroy(connectionError('read ECONNRESET'));
      else if (!peer.readableEnded) peer.push(null);
    }
    done(err);
  }

  /** Closes after everything written so far has gone (net.Socket#destroySoon). */
  destroySoon(): void {
    if (this.destroyed) return;
    if (this.writable) this.end();
    if (this.writableFinished) this.destroy();
    else this.once('finish', () => this.destroy());
  }

  /** Drops the connection at once; the peer sees ECONNRESET (net.Socket#resetAndDestroy). */
  resetAndDestroy(): this {
    this.#reset = true;
    return this.destroy();
  }

  /** After `ms` without a byte either way, emits 'timeout' (0 turns it off), as net.Socket#setTimeout. */
  setTimeout(ms: number, onTimeout?: () => void): this {
    this.#idleMs = ms;
    if (onTimeout) this.once('timeout', onTimeout);
    this.#touch();
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  #touch(): void {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    if (this.#idleMs > 0 && !this.destroyed) {
      this.#idleTimer = setTimeout(() => this.emit('timeout'), this.#idleMs);
      this.#idleTimer.unref();
    }
  }
}
