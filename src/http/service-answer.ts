import type { RequestHandler, Response } from 'express';
import { marksOf } from './journal-marks.js';
import { mayChangeState } from './journal.js';

/** Instead of the service's answer: the hook answers or ends the connection itself; the service's bytes are dropped. */
export interface AnswerReplacement {
  replace(): void;
}

/**
 * Runs when the service (emulator, recording or upstream) starts its answer, with the status it chose; by then
 * its change, if any, is committed. Nothing: the answer goes out. A promise: the answer waits for it. A
 * replacement: the hook's answer (or a reset) goes out instead.
 */
export type AnswerHook = (status: number) => void | Promise<unknown> | AnswerReplacement;

/** Registers a hook for this request's service answer (call it from a step before `serviceAnswer`). */
export function onServiceAnswer(res: Response, hook: AnswerHook): void {
  (res.locals.answerHooks ??= []).push(hook);
}

type Method = 'writeHead' | 'write' | 'end';
const METHODS: readonly Method[] = ['writeHead', 'write', 'end'];
type Writer = (...args: unknown[]) => unknown;

/**
 * The step right before the service: it notes the status the service answers with (the journal's
 * `committed` reads it) and runs the hooks earlier steps registered. It stands innermost, so it sees the
 * service's own writes before any fault's wrapper does. Requests that can change nothing and have no
 * hook pass untouched.
 */
export function serviceAnswer(): RequestHandler {
  return (req, res, next) => {
    const hooks = res.locals.answerHooks;
    if (hooks) gate(res, hooks);
    else if (mayChangeState(req.method)) noteStatus(res);
    next();
  };
}

/**
 * Without hooks only the status is noted, at writeHead: every answer's headers go out through it (Node
 * calls it on the first write or end when the service does not).
 */
function noteStatus(res: Response): void {
  const own = res as unknown as { writeHead: Writer };
  const writeHead = own.writeHead;
  own.writeHead = (...args: unknown[]) => {
    own.writeHead = writeHead;
    marksOf(res).serviceStatus = typeof args[0] === 'number' ? args[0] : res.statusCode;
    return writeHead.apply(res, args);
  };
}

function gate(res: Response, hooks: readonly AnswerHook[]): void {
  const own = res as unknown as Record<Method, Writer>;
  const outer = { writeHead: own.writeHead, write: own.write, end: own.end };
  const queue: Array<{ method: Method; args: unknown[] }> = [];
  let owesDrain = false;

  const restore = (): void => {
    for (const m of METHODS) own[m] = outer[m];
  };
  const flush = (): void => {
    restore();
    for (const call of queue.splice(0)) outer[call.method].apply(res, call.args);
    if (owesDrain) res.emit('drain');
  };
  const drop = (replacement: AnswerReplacement): void => {
    restore();
    replacement.replace();
    // The service's calls, queued or still to come, are acknowledged and go nowhere.
    for (const call of queue.splice(0)) callBack(call.args);
    own.writeHead = () => res;
    own.write = (...args) => (callBack(args), true);
    own.end = (...args) => (callBack(args), res);
  };
  const run = (status: number, from: number): void => {
    for (let i = from; i < hooks.length; i++) {
      const verdict = hooks[i]!(status);
      if (verdict instanceof Promise) {
        // A hook that fails lets the answer out: the service's answer is never lost to a hook.
        verdict.then(
          () => run(status, i + 1),
          () => run(status, i + 1),
        );
        return;
      }
      if (verdict) return drop(verdict);
    }
    flush();
  };

  let started = false;
  for (const method of METHODS) {
    own[method] = (...args: unknown[]) => {
      if (!started) {
        started = true;
        const status = method === 'writeHead' && typeof args[0] === 'number' ? args[0] : res.statusCode;
        marksOf(res).serviceStatus = status;
        queue.push({ method, args });
        run(status, 0);
      } else {
        queue.push({ method, args });
      }
      if (method !== 'write') return res;
      if (queue.length === 0) return true;
      // Held: a writer waits for 'drain', as it would for a full socket.
      owesDrain = true;
      return false;
    };
  }
}

function callBack(args: unknown[]): void {
  const cb = args.find((a): a is () => void => typeof a === 'function');
  cb?.();
}
