import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { InProcessHttp, type PlainRequest, type PlainResponse } from '../http/in-process-http.js';
import { identify } from '../recording/exchange-record.js';
import { clientOf, headerValue, type Exchange, type Recording } from '../recording/format.js';
import { missMessage, type IndexedExchange } from './miss-message.js';
import { carriesLinks, fromToken, keptHeaders } from '../recording/normalise.js';
import { missRecorder } from './proxy-on-miss.js';
import type { RecordingWriter } from '../recording/recording-io.js';
import {
  DEFAULT_IGNORED_QUERY,
  DEFAULT_MATCH_HEADERS,
  keyString,
  requestKey,
  splitUrl,
  withoutBody,
  type MatchOptions,
  type RequestKey,
} from '../recording/request-key.js';
import type { Upstream } from '../record/upstream.js';
import { markReplay } from '../http/journal.js';
import { readBody } from '../http/read-body.js';
import { maxFileBytes } from '../files/contained-file.js';

/** What a request that matches nothing gets: a text/plain 404, the emulator's answer, or the upstream's (recorded). */
export type MissPolicy = 'error' | 'emulate' | 'proxy';
export const MISS_POLICIES: readonly MissPolicy[] = ['error', 'emulate', 'proxy'];

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
  /** Our public origin for links; default http://<Host>. */
  publicUrl?: string;
  log?: (line: string) => void;
}

/** A replay as a request handler, usable as express middleware or a plain Node listener. */
export interface ReplayHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  readonly recording: Recording;
  /** Forgets which recorded answers each client has had (back to the first of each). */
  reset(): void;
  /** How often each exchange (by id) has been served since the start or the last reset. */
  servedCounts(): ReadonlyMap<number, number>;
}

/** The status of a miss under 'error'. */
export const MISS_STATUS = 404;
export const MISS_HEADER = 'x-csp-mock-replay';

/**
 * Serves a recording. Identical requests get their recorded answers in order, the last one
 * repeating; the order is kept per client (X-Mock-Session, else the Basic login) so parallel
 * clients replay deterministically.
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
  const indexed: IndexedExchange[] = [];
  const byKey = new Map<string, IndexedExchange[]>();
  // Early refusals recorded without their body: they match whatever body comes.
  const partialByKey = new Map<string, IndexedExchange[]>();
  const add = (exchange: Exchange): void => {
    const entry = { exchange, key: requestKey(exchange.request, match) };
    indexed.push(entry);
    const k = keyString(exchange.request.partialBody ? withoutBody(entry.key) : entry.key);
    const map = exchange.request.partialBody ? partialByKey : byKey;
    const list = map.get(k);
    if (list) list.push(entry);
    else map.set(k, [entry]);
  };
  for (const e of recording.exchanges) add(e);
  const served = new Map<string, number>();
  const servedById = new Map<number, number>();
  const emulator = onMiss === 'emulate' ? new InProcessHttp(options.emulator!) : undefined;
  const proxyMiss = onMiss === 'proxy' ? missRecorder(options.upstream!, recording, options.writer) : undefined;

  const pick = (client: string, key: RequestKey): Exchange | undefined => {
    let k = keyString(key);
    let all = byKey.get(k);
    if (!all) {
      k = keyString(withoutBody(key));
      all = partialByKey.get(k);
    }
    if (!all) return undefined;
    // The client's own recorded answers when it has any; otherwise everyone's.
    const own = all.filter((x) => clientOf(x.exchange) === client);
    const candidates = own.length ? own : all;
    const counter = `${client}\n${k}`;
    const n = served.get(counter) ?? 0;
    served.set(counter, n + 1);
    const exchange = candidates[Math.min(n, candidates.length - 1)]!.exchange;
    servedById.set(exchange.id, (servedById.get(exchange.id) ?? 0) + 1);
    return exchange;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req, maxFileBytes());
    const origin = options.publicUrl ?? `http://${req.headers.host ?? 'localhost'}`;
    const url = req.url ?? '/';
    const { path, query } = splitUrl(url);
    const method = req.method ?? 'GET';
    const headers = keptHeaders(req.headers);
    const key = requestKey({ method, path, query, headers, body }, match, [origin]);
    const client = clientOf(identify(req.headers));
    const found = pick(client, key);
    if (found) {
      markReplay(res, { outcome: 'served', exchange: found.id });
      sendRecorded(res, found, origin, method);
      return;
    }
    const plain: PlainRequest = { method, url, headers: req.headers as Record<string, string | string[]>, body };
    if (emulator) {
      log(`replay miss, emulated: ${method} ${path}`);
      markReplay(res, { outcome: 'emulated' });
      sendPlain(res, await emulator.dispatch(plain), method);
      return;
    }
    if (proxyMiss) {
      markReplay(res, { outcome: 'proxied' });
      const exchange = await proxyMiss(req, res, plain, origin);
      add(exchange);
      served.set(`${client}\n${keyString(key)}`, 1);
      log(`replay miss, proxied and recorded as exchange ${exchange.id}: ${method} ${path}`);
      return;
    }
    const text = missMessage(method, path, client, key, indexed);
    log(`replay miss: ${method} ${path}`);
    markReplay(res, { outcome: 'missed', nearMiss: text });
    res.writeHead(MISS_STATUS, {
      'Content-Type': 'text/plain; charset=UTF-8',
      [MISS_HEADER]: 'miss',
      'Content-Length': Buffer.byteLength(text),
    });
    res.end(text);
  };

  const handler = ((req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((err: Error) => {
      log(`replay failed: ${err.message}`);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const text = `502 replay could not answer: ${err.message}\n`;
      res
        .writeHead(502, { 'Content-Type': 'text/plain; charset=UTF-8', 'Content-Length': Buffer.byteLength(text) })
        .end(text);
    });
  }) as ReplayHandler;
  Object.defineProperty(handler, 'recording', { value: recording });
  handler.reset = () => {
    served.clear();
    servedById.clear();
  };
  handler.servedCounts = () => new Map(servedById);
  return handler;
}

/** The recorded response, byte for byte, with the base-URL token turned into our origin. */
function sendRecorded(res: ServerResponse, exchange: Exchange, origin: string, method: string): void {
  const { status, headers, body } = exchange.response;
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = Array.isArray(value) ? value.map((v) => fromToken(v, origin)) : fromToken(value, origin);
  }
  const bytes = carriesLinks(headerValue(headers, 'content-type'))
    ? Buffer.from(fromToken(body.toString('utf8'), origin), 'utf8')
    : body;
  const noBody = method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200);
  if (!noBody) out['content-length'] = String(bytes.length);
  res.writeHead(status, out);
  res.end(noBody ? undefined : bytes);
}

function sendPlain(res: ServerResponse, answer: PlainResponse, method: string): void {
  const headers = keptHeaders(answer.headers, true);
  const noBody = method === 'HEAD' || answer.status === 204 || answer.status === 304;
  if (!noBody) headers['content-length'] = String(answer.body.length);
  res.writeHead(answer.status, headers);
  res.end(noBody ? undefined : answer.body);
}

/** Whether a scenario's replay step is this module's handler (it then tells its recording and what it served). */
export function isReplayHandler(handler: unknown): handler is ReplayHandler {
  return typeof handler === 'function' && 'recording' in handler && 'servedCounts' in handler;
}
