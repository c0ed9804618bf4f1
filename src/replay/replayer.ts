import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { InProcessHttp, type PlainRequest } from '../http/in-process-http.js';
import { identify } from '../recording/exchange-record.js';
import { clientOf, type Recording } from '../recording/format.js';
import { missMessage } from './miss-message.js';
import { emulatedAnswer, recordedAnswer } from './recorded-answer.js';
import { RecordedExchanges } from './recorded-exchanges.js';
import { keptHeaders } from '../recording/normalise.js';
import { missRecorder } from './proxy-on-miss.js';
import type { RecordingWriter } from '../recording/recording-io.js';
import {
  DEFAULT_IGNORED_QUERY,
  DEFAULT_MATCH_HEADERS,
  requestKey,
  splitUrl,
  type MatchOptions,
  type RequestKey,
} from '../recording/request-key.js';
import type { Upstream } from '../record/upstream.js';
import { markReplay } from '../http/journal.js';
import { readBody } from '../http/read-body.js';
import { maxFileBytes } from '../files/contained-file.js';
import { requestOrigin } from '../http/request-origin.js';
import { plainAnswer, sendAnswer } from '../http/answer.js';

// Its own module, so the CLI can offer the choices without loading the replayer.
import type { MissPolicy } from './miss-policy.js';
export type { MissPolicy } from './miss-policy.js';

export interface ReplayOptions {
  /** Default 'error'. */
  onMiss?: MissPolicy;
  /** For 'emulate': the emulator app (an express app or any Node request listener) that answers misses in-process; not an app that itself replays. */
  emulator?: RequestListener;
  /** For 'proxy': where to send misses; the new exchanges are appended to `writer` (or to the recording's file). */
  upstream?: Upstream;
  writer?: RecordingWriter;
  /** Request headers that take part in matching (default DEFAULT_MATCH_HEADERS). */
  matchHeaders?: string[];
  /** Query parameters left out of matching (default DEFAULT_IGNORED_QUERY: cache busters). */
  ignoreQuery?: string[];
  /**
   * A client that has had every recorded answer for a request gets the last again (true, the default)
   * or a miss (false: record --mode new records it).
   */
  repeatLast?: boolean;
  /** Our public origin for links; default http://<Host>. */
  publicUrl?: string;
  /** A tenant's "/t/<name>": links carry it. */
  mountPath?: string;
  log?: (line: string) => void;
}

/** A replay as a request handler, usable as express middleware or a plain Node listener. */
export interface ReplayHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  readonly recording: Recording;
  /** Forgets which recorded answers each client has had (back to the first of each). */
  reset(): void;
  /**
   * For closing: resolves once every miss the upstream has answered is in the recording; a miss whose upstream
   * has not answered yet is given up (its client gets a 502).
   */
  settled(): Promise<void>;
  /** How often each exchange (by id) has been served since the start or the last reset. */
  servedCounts(): ReadonlyMap<number, number>;
}

/** The status of a miss under 'error'. */
export const MISS_STATUS = 404;
export const MISS_HEADER = 'x-csp-mock-replay';

/**
 * Serves a recording: each request is matched (RecordedExchanges), answered with its recorded
 * response, or, if it matches nothing, handed to the miss policy. The order of repeated answers is
 * kept per client (X-Mock-Session, else the Basic login).
 */
export function createReplayHandler(recording: Recording, options: ReplayOptions = {}): ReplayHandler {
  const onMiss = options.onMiss ?? 'error';
  if (onMiss === 'emulate' && !options.emulator) throw new Error('on-miss "emulate" needs an emulator');
  if (onMiss === 'proxy' && !options.upstream) throw new Error('on-miss "proxy" needs --upstream');
  const match: MatchOptions = {
    headers: options.matchHeaders ?? DEFAULT_MATCH_HEADERS,
    ignoreQuery: options.ignoreQuery ?? DEFAULT_IGNORED_QUERY,
    redacted: recording.redacted,
  };
  const log = options.log ?? (() => undefined);
  const recorded = new RecordedExchanges(recording.exchanges, match, options.repeatLast ?? true);
  // A proxied miss reaches the recording after its client has the answer: closing waits for it.
  const pending = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    pending.add(work);
    const done = (): void => void pending.delete(work);
    work.then(done, done);
    return work;
  };
  const closing = new AbortController();
  const miss = missAnswer(onMiss, recording, recorded, options, log, track, closing.signal);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const request = await readRequest(req, match, options.publicUrl, options.mountPath);
    const found = recorded.pick(request.client, request.key);
    if (!found) return miss(req, res, request);
    markReplay(res, { outcome: 'served', exchange: found.id });
    await sendAnswer(res, await recordedAnswer(res, found, request.origin, request.method));
  };

  const handler = ((req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((err: Error) => {
      log(`replay failed: ${err.message}`);
      void sendAnswer(res, plainAnswer(502, `replay could not answer: ${err.message}`));
    });
  }) as ReplayHandler;
  Object.defineProperty(handler, 'recording', { value: recording });
  handler.reset = () => recorded.reset();
  handler.servedCounts = () => recorded.servedCounts();
  handler.settled = async () => {
    closing.abort();
    await Promise.allSettled([...pending]);
  };
  return handler;
}

/** A request as replay sees it: read whole, keyed for matching, with its client and our origin. */
interface ReplayRequest {
  plain: PlainRequest;
  method: string;
  path: string;
  key: RequestKey;
  client: string;
  origin: string;
}

async function readRequest(
  req: IncomingMessage,
  match: MatchOptions,
  publicUrl?: string,
  mountPath?: string,
): Promise<ReplayRequest> {
  const body = await readBody(req, maxFileBytes());
  const origin = requestOrigin(req, publicUrl, mountPath);
  const url = req.url ?? '/';
  const { path, query } = splitUrl(url);
  const method = req.method ?? 'GET';
  const key = requestKey({ method, path, query, headers: keptHeaders(req.headers), body }, match, [origin]);
  return {
    plain: { method, url, headers: req.headers as Record<string, string | string[]>, body },
    method,
    path,
    key,
    client: clientOf(identify(req.headers)),
    origin,
  };
}

type MissAnswer = (req: IncomingMessage, res: ServerResponse, request: ReplayRequest) => Promise<void>;

/** The miss step, by policy: the emulator answers, the upstream answers (and is recorded), or a 404 names the nearest. */
function missAnswer(
  onMiss: MissPolicy,
  recording: Recording,
  recorded: RecordedExchanges,
  options: ReplayOptions,
  log: (line: string) => void,
  track: <T>(work: Promise<T>) => Promise<T>,
  closing: AbortSignal,
): MissAnswer {
  switch (onMiss) {
    case 'emulate': {
      const emulator = new InProcessHttp(options.emulator!);
      return async (_req, res, { plain, method, path }) => {
        log(`replay miss, emulated: ${method} ${path}`);
        markReplay(res, { outcome: 'emulated' });
        await sendAnswer(res, emulatedAnswer(res, await emulator.dispatch(plain), method));
      };
    }
    case 'proxy': {
      const proxyMiss = missRecorder(options.upstream!, recording, options.writer, closing);
      return async (req, res, { plain, method, path, key, client, origin }) => {
        markReplay(res, { outcome: 'proxied' });
        const exchange = await track(proxyMiss(req, res, plain, origin));
        if (!exchange) {
          log(`replay miss, proxied but not recorded (the client closed before the whole answer): ${method} ${path}`);
          return;
        }
        recorded.add(exchange);
        recorded.servedOnce(client, key);
        log(`replay miss, proxied and recorded as exchange ${exchange.id}: ${method} ${path}`);
      };
    }
    case 'error':
      return async (_req, res, { method, path, key, client }) => {
        const text = missMessage(method, path, client, key, recorded.indexed, recording.redacted);
        log(`replay miss: ${method} ${path}`);
        markReplay(res, { outcome: 'missed', nearMiss: text });
        void sendAnswer(res, {
          status: MISS_STATUS,
          headers: { [MISS_HEADER]: 'miss', 'Content-Type': 'text/plain; charset=UTF-8' },
          body: text,
        });
      };
  }
}

/** Whether a scenario's replay step is this module's handler (it then tells its recording and what it served). */
export function isReplayHandler(handler: unknown): handler is ReplayHandler {
  return typeof handler === 'function' && 'recording' in handler && 'servedCounts' in handler;
}
