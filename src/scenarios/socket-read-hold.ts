import type { Socket } from 'node:net';

/**
 * Stops and restarts reading from a server socket whose bytes Node's HTTP parser consumes directly.
 * socket.pause() alone does not hold: a 'resume' scheduled earlier restarts the reads a tick later
 * (and a second pause() emits nothing), so the server's own 'pause'/'resume' listeners are driven
 * directly, and every 'resume' while held is answered with a 'pause'.
 */
export class SocketReadHold {
  readonly #socket: Socket;
  readonly #reasons = new Set<string>();
  readonly #repause = (): void => {
    if (this.#reasons.size > 0) this.#socket.emit('pause');
  };

  constructor(socket: Socket) {
    this.#socket = socket;
  }

  /** Stops reading until every reason given is released. */
  hold(reason: string): void {
    if (this.#reasons.has(reason)) return;
    this.#reasons.add(reason);
    if (this.#reasons.size === 1) {
      this.#socket.on('resume', this.#repause);
      this.#socket.emit('pause');
    }
  }

  release(reason: string): void {
    if (!this.#reasons.delete(reason) || this.#reasons.size > 0) return;
    this.#socket.off('resume', this.#repause);
    if (!this.#socket.destroyed) this.#socket.emit('resume');
  }

  /** Drops every hold without reading again (the connection is ending). */
  dispose(): void {
    this.#reasons.clear();
    this.#socket.off('resume', this.#repause);
  }
}
