import type { Request, Response } from 'express';
import { markNetwork, markOutcome } from '../../http/journal-marks.js';
import type { NetworkRecord } from '../../http/network-record.js';
import type { RequestConditions } from './network-conditions.js';
import { RequestPacer } from './request-pacer.js';
import { ResponsePacer } from './response-pacer.js';
import { shapeBody } from '../../http/answer-writer.js';
import { leaveSwitchGate, onSwitch } from '../scenario-runtime.js';
import { slowCloseAfterResponse } from './slow-close.js';
import { resetConnection } from '../wire-faults.js';

/** One request under network conditions and its journal record. */
export interface ShapedRequest {
  conditions: RequestConditions;
  record: NetworkRecord;
}

/** Starts the request side at once (bytes that arrive during a delay are paced and counted too). */
export function shapeRequest(req: Request, res: Response, conditions: RequestConditions): ShapedRequest {
  const record: NetworkRecord = { conditions: conditions.names, bytesIn: 0, bytesOut: 0 };
  markNetwork(res, record);
  // A stalled upload reads (and counts) its bytes itself, then stops reading.
  const stalls = conditions.stallUpload !== undefined || conditions.hang?.of === 'request';
  if (!stalls) {
    const pacer = new RequestPacer(req, res, record, conditions.upRate);
    onSwitch(res, () => pacer.lift());
  }
  return { conditions, record };
}

/** The answer side: pacing, slices, a hang of the answer (the answer writer's pacing stage), a slow close. */
export function shapeAnswer(req: Request, res: Response, shaped: ShapedRequest): void {
  const { conditions, record } = shaped;
  const answerHang = conditions.hang?.of === 'request' ? undefined : conditions.hang;
  if (conditions.slowCloseMs !== undefined) slowCloseAfterResponse(res, conditions.slowCloseMs);
  if (conditions.downRate === undefined && !conditions.slice && !answerHang) return;
  const pacer = new ResponsePacer(req, res, record, {
    downRate: conditions.downRate,
    slice: conditions.slice,
    hang: answerHang,
    onHang: () => leaveSwitchGate(res, () => endHeld(res)),
    onHangEnd: () => endConnection(req, res, answerHang?.then ?? 'close'),
  });
  shapeBody(res, 'pace', pacer);
  onSwitch(res, () => pacer.lift());
}

/** Ends a connection a fault held when the scenario is switched away from or the mock closes. */
export function endHeld(res: Response): void {
  markOutcome(res, 'closed');
  res.socket?.destroy();
}

/** Ends a held connection: a FIN ("close"), or a TCP reset. */
export function endConnection(req: Request, res: Response, how: 'close' | 'reset'): void {
  if (how === 'reset') return resetConnection(req, res);
  markOutcome(res, 'closed');
  res.socket?.destroySoon();
}
