import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { dropCorsHeaders, isHeldPreflight } from '../http/cors.js';
import { markDelay, markFault } from '../http/journal-marks.js';
import type { PendingDelays } from './pending-delays.js';
import { activeOf, leaveSwitchGate } from './scenario-runtime.js';
import { closeAfterResponse } from '../http/close-connection.js';
import { endConnection, endHeld, shapeAnswer, shapeRequest, type ShapedRequest } from './network/network-shaping.js';
import { stallUpload } from './stall-upload.js';
import { commitThen } from './ambiguous-commit.js';
import type { FaultRule } from './types.js';
import { Truncation, faultAnswer, resetConnection } from './wire-faults.js';
import { sendAnswer } from '../http/answer.js';
import { shapeBody } from '../http/answer-writer.js';

/**
 * Global latency, then the first fault rule that matches and fires: it answers, or wraps the real
 * answer. Network conditions (the scenario's and the rule's) shape the bytes both ways.
 */
export function faultMiddleware(delays: PendingDelays): RequestHandler {
  // Nothing armed: no promise, no rule to try.
  return (req, res, next) => (activeOf(res).quiet ? next() : applyScenario(delays, req, res, next));
}

async function applyScenario(delays: PendingDelays, req: Request, res: Response, next: NextFunction): Promise<void> {
  const active = activeOf(res);
  if (!(await delays.wait(held(res, active.latencyMs()), res))) return;
  const armed = active.faultFor(req, isHeldPreflight(res));
  const conditions = active.conditionsFor(armed);
  const shaped = conditions ? shapeRequest(req, res, conditions) : undefined;
  if (!armed) {
    if (shaped) shapeAnswer(req, res, shaped);
    return next();
  }
  markFault(res, armed.label);
  const rule = armed.rule;
  // A deployment misconfigured for the page: the answer goes out, the browser hides it.
  if (rule.cors === 'drop') dropCorsHeaders(res);
  if (!(await delays.wait(held(res, armed.delayMs()), res))) return;
  if (shaped && (rule.stallUpload || rule.hang?.of === 'request')) return stallRequest(req, res, rule, shaped);
  if (rule.afterCommit !== undefined) commitThen(req, res, rule.afterCommit);
  if (rule.connection === 'reset') return resetConnection(req, res);
  if (rule.truncateAfterBytes !== undefined) shapeBody(res, 'truncate', new Truncation(res, rule.truncateAfterBytes));
  if (rule.connection === 'close' && !rule.respond) closeAfterResponse(res);
  // The answer writer runs pacing before truncation, so a truncation counts the bytes as they leave the pacer.
  if (shaped) shapeAnswer(req, res, shaped);
  if (rule.respond) {
    if (rule.connection === 'close') closeAfterResponse(res);
    return sendAnswer(res, faultAnswer(rule.respond));
  }
  next();
}

/** Notes a delay for the journal (so a test reads the delay drawn instead of timing it), and returns it. */
function held(res: Response, ms: number): number {
  if (ms > 0) markDelay(res, ms);
  return ms;
}

/** A stalled upload or a hang of the request: the service never sees it; the rule says how it ends. */
function stallRequest(req: Request, res: Response, rule: FaultRule, shaped: ShapedRequest): void {
  const hang = rule.hang?.of === 'request' ? rule.hang : undefined;
  const stall = rule.stallUpload;
  const end = hang
    ? hang.ms === undefined
      ? 'nothing'
      : (hang.then ?? 'close')
    : rule.respond
      ? 'answer'
      : (rule.connection ?? 'nothing');
  stallUpload(req, res, shaped.record, {
    afterBytes: hang ? (hang.afterBytes ?? 0) : stall!.afterBytes,
    ms: hang ? hang.ms : stall!.ms,
    end,
    answer: () => {
      shapeAnswer(req, res, shaped);
      closeAfterResponse(res);
      void sendAnswer(res, faultAnswer(rule.respond!));
    },
    reset: () => endConnection(req, res, 'reset'),
    onStall: () => leaveSwitchGate(res, () => endHeld(res)),
  });
}
