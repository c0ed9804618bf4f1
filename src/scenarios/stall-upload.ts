import type { Request, Response } from 'express';
import type { NetworkRecord } from '../http/network-record.js';
import { markOutcome } from '../http/journal-marks.js';

/** How a stalled upload ends: an answer, a close or a reset, or nothing until the client gives up. */
export interface StallPlan {
  afterBytes: number;
  ms: number | undefined;
  end: 'answer' | 'close' | 'reset' | 'nothing';
  /** Sends the rule's answer (which closes the connection after it). */
  answer: () => void;
  reset: () => void;
  /** Called when reading stops: the request holds its connection and no longer needs the state. */
  onStall: () => void;
}

/**
 * Reads `afterBytes` of the request body and throws them away (the service never sees this request),
 * then stops reading the request and its socket: the client's writes fill the socket buffers and
 * block. Then the plan's end.
 */
export function stallUpload(req: Request, res: Response, record: NetworkRecord, plan: StallPlan): void {
  let read = 0;
  let timer: NodeJS.Timeout | undefined;
  let stalled = false;
  const stall = (): void => {
    if (stalled) return;
    stalled = true;
    req.off('readable', onReadable);
    req.off('end', stall);
    // Nothing reads the body from now on, so Node stops reading the socket once the request's
    // buffer is full. A body already whole would still be read to its end, and a client that
    // gave up seen at once: the socket is paused too, a turn later, after any resume that a
    // read just now scheduled.
    const socket = req.socket;
    setImmediate(() => socket.pause());
    plan.onStall();
    if (plan.end === 'nothing') return;
    timer = setTimeout(finish, plan.ms ?? 0);
  };
  const finish = (): void => {
    timer = undefined;
    if (res.closed) return;
    if (plan.end === 'answer') return plan.answer();
    if (plan.end === 'reset') return plan.reset();
    markOutcome(res, 'closed');
    res.socket?.destroySoon();
  };
  const onReadable = (): void => {
    while (read < plan.afterBytes) {
      const chunk = req.read(Math.min(plan.afterBytes - read, req.readableLength || 1)) as Buffer | null;
      if (chunk === null) return;
      read += chunk.length;
      record.bytesIn += chunk.length;
    }
    stall();
  };
  res.once('close', () => {
    clearTimeout(timer);
    req.off('readable', onReadable);
  });
  if (plan.afterBytes === 0) return stall();
  req.on('readable', onReadable);
  // A body shorter than afterBytes was read whole; the stall begins at its end.
  req.once('end', stall);
}
