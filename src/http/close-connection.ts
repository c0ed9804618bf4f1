import type { Response } from 'express';
import { markOutcome } from './journal-marks.js';

/** After the response is written, close the socket (Connection: close really closes). */
export function closeAfterResponse(res: Response): void {
  if (!res.headersSent) res.setHeader('Connection', 'close');
  // Node detaches the socket from the response on 'finish' before later listeners run: hold it here.
  const socket = res.socket;
  res.once('finish', () => socket?.destroySoon());
  markOutcome(res, 'closed');
}
