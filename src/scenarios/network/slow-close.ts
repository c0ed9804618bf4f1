import type { Response } from 'express';

/**
 * The answer goes out with Connection: close, and its socket closes `ms` after the last byte:
 * every close of this connection (the server's own after the answer, a hang's, a truncation's) waits.
 */
export function slowCloseAfterResponse(res: Response, ms: number): void {
  const socket = res.socket;
  if (!socket) return;
  if (!res.headersSent) res.setHeader('Connection', 'close');
  const destroySoon = socket.destroySoon.bind(socket);
  let timer: NodeJS.Timeout | undefined;
  socket.destroySoon = () => {
    if (timer || socket.destroyed) return;
    timer = setTimeout(destroySoon, ms);
  };
  socket.once('close', () => clearTimeout(timer));
}
