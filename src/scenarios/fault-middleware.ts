import type { RequestHandler } from 'express';
import { markFault } from '../http/journal-marks.js';
import type { PendingDelays } from './pending-delays.js';
import { activeOf } from './scenario-runtime.js';
import { closeAfterResponse } from '../http/close-connection.js';
import { resetConnection, sendFaultResponse, truncateBody } from './wire-faults.js';

/** Global latency, then the first fault rule that matches and fires: it answers, or wraps the real answer. */
export function faultMiddleware(delays: PendingDelays): RequestHandler {
  return async (req, res, next) => {
    const active = activeOf(res);
    if (!(await delays.wait(active.latencyMs(), res))) return;
    const armed = active.faultFor(req);
    if (!armed) return next();
    markFault(res, armed.label);
    const rule = armed.rule;
    if (!(await delays.wait(rule.delayMs ?? rule.respond?.delayMs ?? 0, res))) return;
    if (rule.connection === 'reset') return resetConnection(req, res);
    if (rule.respond) return sendFaultResponse(res, rule.respond, rule.connection === 'close');
    if (rule.truncateAfterBytes !== undefined) truncateBody(res, rule.truncateAfterBytes);
    if (rule.connection === 'close') closeAfterResponse(res);
    next();
  };
}

/** In a scenario that names a recording, the replayer answers what no fault answered. */
export function replayStep(): RequestHandler {
  return (req, res, next) => {
    const replay = activeOf(res).replay;
    if (!replay) return next();
    return replay(req, res, next);
  };
}
