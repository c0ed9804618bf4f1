import type { Socket } from 'node:net';
import type { Server as HttpsServer } from 'node:https';

/** The first byte of a TLS record carrying a handshake (a ClientHello starts every TLS connection). */
const TLS_HANDSHAKE = 0x16;
/** Request methods start with an upper-case ASCII letter: what plain HTTP sends first. */
const isMethodLetter = (byte: number): boolean => byte >= 0x41 && byte <= 0x5a;

/**
 * Plain HTTP sent to an HTTPS port gets a plain-text 400 that names the https:// address, instead of a closed
 * connection with no word. The server's own TLS connection handler runs only once the first byte shows a TLS
 * handshake (read, then put back with `unshift`); the wait for that byte is bounded by `waitMs`.
 * Built on documented APIs only: the server's 'connection' listeners, taken and called in turn.
 */
export function answerPlainHttp(server: HttpsServer, waitMs: () => number): void {
  const tlsListeners = server.listeners('connection') as Array<(socket: Socket) => void>;
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const fail = (): void => void socket.destroy();
    socket.on('error', fail);
    socket.on('timeout', fail);
    socket.setTimeout(waitMs());
    socket.once('readable', () => {
      socket.setTimeout(0);
      socket.off('timeout', fail);
      socket.off('error', fail);
      const first = socket.read(1) as Buffer | null;
      if (first === null) return fail();
      socket.unshift(first);
      if (first[0] !== TLS_HANDSHAKE && isMethodLetter(first[0]!)) return refuse(socket, waitMs());
      for (const listener of tlsListeners) listener.call(server, socket);
    });
  });
}

/** Answers, reads and drops what the client still sends, and closes once it has read the answer (or after `waitMs`). */
function refuse(socket: Socket, waitMs: number): void {
  const port = socket.localPort ?? '';
  const host = socket.localFamily === 'IPv6' ? `[${socket.localAddress}]` : socket.localAddress;
  const body = `this port speaks HTTPS: use https://${host}:${port}/ (plain HTTP was sent)\n`;
  const close = (): void => void socket.destroy();
  socket.on('error', close);
  socket.on('end', close);
  socket.on('timeout', close);
  socket.setTimeout(waitMs);
  socket.resume();
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
