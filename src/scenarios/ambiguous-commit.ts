import type { Request, Response } from 'express';
import { markOutcome, marksOf } from '../http/journal-marks.js';
import { onServiceAnswer } from '../http/answer-writer.js';
import type { FaultResponse } from './types.js';
import { faultAnswer, resetConnection } from './wire-faults.js';
import { sendAnswer } from '../http/answer.js';

/**
 * An ambiguous commit: the request goes to the service, which commits its change; its success answer
 * never reaches the client, which sees a reset, a close without a byte, or another answer instead. A
 * request the service refuses committed nothing, so its own answer goes out and no fault is noted.
 */
export function commitThen(req: Request, res: Response, action: 'reset' | 'close' | FaultResponse): void {
  // The headers the mock set before the service (the sandbox policy), kept on a replacing answer.
  const before = res.getHeaders();
  onServiceAnswer(res, (status) => {
    if (status < 200 || status >= 300) {
      delete marksOf(res).fault;
      return;
    }
    return {
      replace: () => {
        if (action === 'reset') return resetConnection(req, res);
        if (action === 'close') {
          markOutcome(res, 'closed');
          res.socket?.destroySoon();
          return;
        }
        for (const name of res.getHeaderNames()) res.removeHeader(name);
        for (const [name, value] of Object.entries(before)) if (value !== undefined) res.setHeader(name, value);
        void sendAnswer(res, faultAnswer(action));
      },
    };
  });
}
