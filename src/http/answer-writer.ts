import type { Express, Request, Response } from 'express';
import type { OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { CappedBytes } from './body-tap.js';
import { marksOf } from './journal-marks.js';
import { mayChangeState } from './methods.js';

/**
 * The one writer of every answer an app sends, whoever makes it (the emulator, a recording, the upstream, a
 * fault, an error, the admin API). It stands where an answer's bytes leave, as the app's own writeHead,
 * write and end (express's documented extension point, its response prototype: a request pays no wrapper
 * of its own), and runs what earlier steps asked for in this one order, from the service to the socket:
 *
 *   1. the service answer: the status the service chose is noted (the journal's `committed`), then the hooks
 *      earlier steps registered run (an ambiguous commit, a second-device change before the answer); the
 *      answer waits for them, or a hook's answer replaces it
 *   2. pacing: network conditions (rate, slices, a hang), scenarios/network/response-pacer.ts
 *   3. truncation: a fault's cut after N body bytes, scenarios/wire-faults.ts
 *   4. the taps: the journal's and the request log's copies of the body, as it leaves
 *   and, as the headers go out: the sandbox policy on served content, then the clock's Date.
 */

export type WriteCallback = (err?: Error | null) => void;
type Chunk = string | Buffer | Uint8Array;

/** Where a body stage hands its bytes on: the next stage, and last the socket. */
export interface BodySink {
  write(chunk: Buffer, cb?: WriteCallback): boolean;
  end(chunk: Buffer | undefined, cb?: WriteCallback): void;
}

/** A stage between the service and the socket; the writer attaches the next one when the body starts. */
export interface BodyStage extends BodySink {
  attach(next: BodySink): void;
}

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

/** What the steps before the service asked of this request's answer (res.locals.answer). */
export interface AnswerPlan {
  /** The service has the request: its first write is the service's answer. */
  atService?: boolean;
  hooks?: AnswerHook[];
  pace?: BodyStage;
  truncate?: BodyStage;
  taps?: CappedBytes[];
  /** The service's status is noted. */
  noted?: boolean;
  /** The stages attached, from the writer's side; made on the first write. */
  body?: BodySink;
  gate?: AnswerGate;
}

function planOf(res: Response): AnswerPlan {
  return (res.locals.answer ??= {});
}

/** Registers a hook for this request's service answer (call it from a step before the service's, `atService`). */
export function onServiceAnswer(res: Response, hook: AnswerHook): void {
  (planOf(res).hooks ??= []).push(hook);
}

/** Sets this answer's pacing or truncation (call it before the service answers). */
export function shapeBody(res: Response, stage: 'pace' | 'truncate', body: BodyStage): void {
  planOf(res)[stage] = body;
}

/** Copies the answer's body, as it leaves, into `into`. */
export function tapAnswer(res: Response, into: CappedBytes): void {
  (planOf(res).taps ??= []).push(into);
}

/**
 * Called by the step that hands a request to the service: from here the first write is the service's answer. A
 * request that can change nothing and has no hook or stage passes untouched.
 */
export function atService(req: Request, res: Response): void {
  const plan = res.locals.answer;
  if (plan) plan.atService = true;
  else if (mayChangeState(req.method)) res.locals.answer = { atService: true };
}

function toBuffer(chunk: Chunk, encoding: unknown): Buffer {
  if (typeof chunk === 'string')
    return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

function callbackOf(...args: unknown[]): WriteCallback | undefined {
  return args.find((a): a is WriteCallback => typeof a === 'function');
}

type Method = 'writeHead' | 'write' | 'end';
type Call = { method: Method; args: unknown[] };
type Writer = (this: ServerResponse, ...args: unknown[]) => unknown;

interface Own {
  writeHead: Writer;
  write: Writer;
  end: Writer;
  /** The headers' last stages: the sandbox policy, the clock's Date. */
  head: (res: ServerResponse, args: unknown[]) => unknown[];
}

/**
 * Holds the service's answer while its hooks run. Open: calls pass. Holding: they queue (a write answers
 * false; 'drain' follows the flush). Replacing: the hook's own answer passes. Dropped: the service's calls
 * are acknowledged and go nowhere.
 */
export class AnswerGate {
  state: 'open' | 'holding' | 'replacing' | 'dropped' = 'open';
  readonly queue: Call[] = [];
  owesDrain = false;
}

/** Makes `app` send every answer through the one writer; `mountPath` is a tenant's "/t/<name>". */
export function answerWriter(app: Express, settings: { clock: { httpDate(): string }; mountPath: string }): void {
  const proto = app.response as unknown as Record<Method, Writer>;
  const own: Own = {
    writeHead: proto.writeHead,
    write: proto.write,
    end: proto.end,
    head: (res, args) => stampHead(res, args, settings.clock, settings.mountPath),
  };
  proto.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    return entry(this as Response, own, 'writeHead', args);
  };
  proto.write = function (this: ServerResponse, ...args: unknown[]) {
    return entry(this as Response, own, 'write', args);
  };
  proto.end = function (this: ServerResponse, ...args: unknown[]) {
    return entry(this as Response, own, 'end', args);
  };
}

/** A call of the service (or of Node, for the implicit head): first the service answer's gate. */
function entry(res: Response, own: Own, method: Method, args: unknown[]): unknown {
  const plan = res.locals?.answer;
  if (!plan) return pass(res, own, undefined, method, args);
  const gate = plan.gate;
  if (gate && gate.state !== 'open') return atGate(res, own, plan, gate, method, args);
  if (plan.atService && !plan.noted && !res.headersSent) {
    // The service's first call: its status, then the hooks.
    plan.noted = true;
    const status = method === 'writeHead' && typeof args[0] === 'number' ? args[0] : res.statusCode;
    marksOf(res).serviceStatus = status;
    if (plan.hooks) {
      const opened = (plan.gate = new AnswerGate());
      opened.state = 'holding';
      opened.queue.push({ method, args });
      runHooks(res, own, plan, opened, plan.hooks, status, 0);
      return afterQueued(opened, method, res);
    }
  }
  return pass(res, own, plan, method, args);
}

function atGate(res: Response, own: Own, plan: AnswerPlan, gate: AnswerGate, method: Method, args: unknown[]): unknown {
  if (gate.state === 'replacing') return pass(res, own, plan, method, args);
  if (gate.state === 'holding') {
    gate.queue.push({ method, args });
    return afterQueued(gate, method, res);
  }
  // Dropped: the head Node makes for the replacement's own bytes still goes out.
  if (method === 'writeHead') return res.headersSent ? res : pass(res, own, plan, method, args);
  callbackOf(...args)?.();
  return method === 'write' ? true : res;
}

function afterQueued(gate: AnswerGate, method: Method, res: Response): unknown {
  if (method !== 'write') return res;
  // Held: a writer waits for 'drain', as it would for a full socket.
  gate.owesDrain = true;
  return false;
}

function runHooks(
  res: Response,
  own: Own,
  plan: AnswerPlan,
  gate: AnswerGate,
  hooks: readonly AnswerHook[],
  status: number,
  from: number,
): void {
  for (let i = from; i < hooks.length; i++) {
    const verdict = hooks[i]!(status);
    if (verdict instanceof Promise) {
      // A hook that fails lets the answer out: the service's answer is never lost to a hook.
      const goOn = (): void => runHooks(res, own, plan, gate, hooks, status, i + 1);
      verdict.then(goOn, goOn);
      return;
    }
    if (verdict) {
      gate.state = 'replacing';
      verdict.replace();
      gate.state = 'dropped';
      // The service's calls, queued or still to come, are acknowledged and go nowhere.
      for (const call of gate.queue.splice(0)) callbackOf(...call.args)?.();
      return;
    }
  }
  gate.state = 'open';
  for (const call of gate.queue.splice(0)) pass(res, own, plan, call.method, call.args);
  if (gate.owesDrain) res.emit('drain');
}

/** Past the gate: the head's last stages, or the body's stages in their order. */
function pass(res: Response, own: Own, plan: AnswerPlan | undefined, method: Method, args: unknown[]): unknown {
  if (method === 'writeHead') {
    if (res.headersSent) return own.writeHead.apply(res, args);
    return own.writeHead.apply(res, own.head(res, args));
  }
  if (!plan || (!plan.pace && !plan.truncate)) {
    // No stage changes the bytes: the service's own arguments go on (taps copy them).
    if (plan?.taps) for (const tap of plan.taps) if (typeof args[0] !== 'function') tap.add(args[0], args[1]);
    return own[method].apply(res, args);
  }
  const body = (plan.body ??= attachStages(res, own, plan));
  const [chunk, encoding] = args;
  const data = chunk === undefined || chunk === null || typeof chunk === 'function' ? undefined : (chunk as Chunk);
  const buf = data === undefined ? undefined : toBuffer(data, encoding);
  const cb = callbackOf(...args);
  if (method === 'write') return body.write(buf ?? Buffer.alloc(0), cb);
  body.end(buf, cb);
  return res;
}

/** The body's stages in the writer's order: pacing, then truncation, then the taps and the socket. */
function attachStages(res: Response, own: Own, plan: AnswerPlan): BodySink {
  const taps = plan.taps ?? [];
  let sink: BodySink = {
    write: (chunk, cb) => {
      for (const tap of taps) tap.add(chunk);
      return own.write.call(res, chunk, cb) as boolean;
    },
    end: (chunk, cb) => {
      if (chunk) for (const tap of taps) tap.add(chunk);
      own.end.call(res, chunk, cb);
    },
  };
  for (const stage of [plan.truncate, plan.pace]) {
    if (!stage) continue;
    stage.attach(sink);
    sink = stage;
  }
  return sink;
}

/** The admin API's own paths, as express routes them (case-insensitive): it sets its pages' policies itself. */
const ADMIN_PATH = /^\/__admin(?:[/?#]|$)/i;

/** Our policy: no script, an opaque origin. */
const SANDBOX = 'sandbox';

/**
 * The headers' last stages. What the mock serves besides its own admin pages (stored files, listings, `respond`
 * bodies, replayed and proxied answers) shares the admin API's origin: a browser must open it sandboxed (no
 * script, an opaque origin) and never sniff it. A policy a handler, fault or recording brings is kept, and ours
 * added beside it (a browser enforces every policy, so theirs can only restrict more); X-Content-Type-Options
 * is always ours. Then the clock's Date, stamped as the headers go out (not on arrival: a delayed or long answer
 * would carry a stale time); an answer that brings its own Date (a proxied or replayed one) keeps it.
 */
function stampHead(res: ServerResponse, args: unknown[], clock: { httpDate(): string }, mountPath: string): unknown[] {
  // originalUrl: inside the admin router, express has cut its mount path off req.url.
  const url = (res.req as { originalUrl?: string }).originalUrl ?? res.req.url ?? '';
  // A tenant's app answers only under its mount ("/t/<name>"): its admin API is what follows it.
  if (!ADMIN_PATH.test(url.slice(mountPath.length))) {
    const last = args.at(-1);
    if (args.length > 1 && last !== undefined && last !== null && typeof last === 'object') {
      applyHeaders(res, last as OutgoingHttpHeaders | OutgoingHttpHeader[]);
      args = args.slice(0, -1);
    }
    const policy = res.getHeader('content-security-policy');
    const policies = policy === undefined ? [] : Array.isArray(policy) ? policy : [String(policy)];
    if (!hasBareSandbox(policies)) res.setHeader('Content-Security-Policy', [...policies, SANDBOX]);
    res.setHeader('X-Content-Type-Options', 'nosniff');
  }
  // Headers given to writeHead itself are set after this one, so a Date among them wins.
  if (!res.hasHeader('Date')) res.setHeader('Date', clock.httpDate());
  return args;
}

/** True when one of the policies has a bare `sandbox` directive (no allow-* tokens that would loosen it). */
function hasBareSandbox(values: string[]): boolean {
  return values.some((value) =>
    value.split(',').some((policy) => policy.split(';').some((d) => d.trim().toLowerCase() === SANDBOX)),
  );
}

/** writeHead's headers argument applied with setHeader/appendHeader, as Node does with headers already set. */
function applyHeaders(res: ServerResponse, headers: OutgoingHttpHeaders | OutgoingHttpHeader[]): void {
  if (!Array.isArray(headers)) {
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
    return;
  }
  // [[name, value], ...] or [name, value, name, value, ...]: repeated names are repeated headers.
  const pairs: [string, OutgoingHttpHeader][] = [];
  if (headers.every((h) => Array.isArray(h))) for (const [n, v] of headers as string[][]) pairs.push([n!, v!]);
  else for (let i = 0; i + 1 < headers.length; i += 2) pairs.push([String(headers[i]), headers[i + 1]!]);
  for (const [name, value] of pairs) res.appendHeader(name, typeof value === 'number' ? String(value) : value);
}
