import { connect, type Socket } from 'node:net';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

/** Serves an express app on a loopback port for raw-socket tests; close() drops open connections. */
export async function listenOnLoopback(app: Express): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface RawExchange {
  /** Everything the server sent before closing (or before the timeout). */
  received: Buffer;
  /** True when the server closed the socket (FIN or reset) within the timeout. */
  closedByServer: boolean;
}

/** Writes raw bytes to the server and collects what comes back until the server closes or `timeoutMs` passes. */
export function rawExchange(
  port: number,
  chunks: Array<Buffer | string>,
  timeoutMs = 1500,
  onData?: (all: Buffer, socket: Socket) => void,
): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const parts: Buffer[] = [];
    let done = false;
    const finish = (closedByServer: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ received: Buffer.concat(parts), closedByServer });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', (d) => {
      parts.push(d);
      onData?.(Buffer.concat(parts), socket);
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.on('connect', () => {
      for (const c of chunks) socket.write(c);
    });
  });
}

export const basic = (user: string, password: string): string =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
