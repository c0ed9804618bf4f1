import type { ClientRequest, IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { BodyCapture, DEFAULT_SIDECAR_THRESHOLD } from '../recording/body-capture.js';
import { MAX_REDACTED_BODY, bodyRedactor } from '../recording/body-redactor.js';
import { contentCodingOf, decodeBody, encodeBody } from './content-coding.js';
import { MULTIPART_BOUNDARY } from '../recording/format.js';
import { linkBodyForRecording, toStoredExchange } from '../recording/exchange-record.js';
import { ByteReplacer, boundaryOf, carriesLinks, replaceOrigins } from '../recording/normalise.js';
import type { RecordingWriter } from '../recording/recording-io.js';
import { forwardedHeaders, returnedHeaders, upstreamFailure, upstreamRequest, type Upstream } from './upstream.js';
import { answerHeaders } from '../http/cors.js';
import { readBody } from '../http/read-body.js';
import { requestOrigin } from '../http/request-origin.js';
import { plainAnswer, sendAnswer } from '../http/answer.js';

export interface RecorderOptions {
  upstream: Upstream;
  writer: RecordingWriter;
  /** Every name to keep out of the recording (see redactedNames). */
  redacted: string[];
  /** Bodies above this many bytes go to sidecar files. */
  sidecarThreshold?: number;
  /** Our own public origin, if clients reach us under another name than the Host header says. */
  publicUrl?: string;
  log?: (line: string) => void;
}

/** Requests whose 100 Continue is ours to send (server.ts routes 'checkContinue' here in record mode). */
const awaitingContinue = new WeakSet<IncomingMessage>();
export function markAwaitingContinue(req: IncomingMessage): void {
  awaitingContinue.add(req);
}

/** Link-bearing entities are small; anything larger is refused rather than held. */
const MAX_LINK_BODY = 16 * 1024 * 1024;

/**
 * The recording reverse proxy: forwards every request to the upstream, streaming bodies both ways
 * (only XML and uri-list entities are held, to swap the upstream's origin for ours in their links),
 * and writes each exchange to the recording once both sides are complete.
 */
export interface RecordingProxy {
  (req: IncomingMessage, res: ServerResponse): void;
  /** Resolves once every exchange whose answer has started is written (call before closing). */
  settled(): Promise<void>;
}

export function createRecordingProxy(options: RecorderOptions): RecordingProxy {
  const pending = new Set<Promise<void>>();
  const log = options.log ?? (() => undefined);
  const ctx: ProxyContext = {
    ...options,
    threshold: options.sidecarThreshold ?? DEFAULT_SIDECAR_THRESHOLD,
    log,
    track: (id, written) => {
      const tracked = written.catch((err: Error) => log(`record: exchange ${id} not written: ${err.message}`));
      pending.add(tracked);
      void tracked.finally(() => pending.delete(tracked));
    },
  };
  const proxy = ((req: IncomingMessage, res: ServerResponse) => {
    const flight = forward(ctx, req, res);
    flight.out.on('response', (upstreamRes) => tap(ctx, flight, upstreamRes));
  }) as RecordingProxy;
  proxy.settled = async () => {
    await Promise.all([...pending]);
    await ctx.writer.flush();
  };
  return proxy;
}

/** What every exchange shares: the options, with defaults, and where a pending write is tracked. */
interface ProxyContext extends RecorderOptions {
  threshold: number;
  log: (line: string) => void;
  track(id: number, written: Promise<void>): void;
}

/** One exchange in flight, from the client's request to the recording's line. */
interface Flight {
  id: number;
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  url: string;
  clientOrigin: string;
  /** The upstream's origin and ours: both become the base-URL token in the recording. */
  origins: string[];
  out: ClientRequest;
  /** Whether the client waits for our 100 Continue before it sends its body, and whether it had it. */
  expecting: boolean;
  continued: boolean;
  continueFallback: NodeJS.Timeout | undefined;
  /** The request body as recorded: held whole when it carries links, else streamed into a capture. */
  linkRequestBody?: Buffer;
  requestCapture: BodyCapture;
  responseCapture?: BodyCapture;
  requestDone: Promise<void>;
  /** The client closed its connection before the whole answer: nothing of this exchange is recorded. */
  abandoned?: boolean;
  fail(status: number, message: string): void;
}

/** Step 1, forward: the request goes to the upstream, its body streamed (or rewritten, if it carries links). */
function forward(ctx: ProxyContext, req: IncomingMessage, res: ServerResponse): Flight {
  const { upstream, writer } = ctx;
  const id = writer.reserveId();
  const clientOrigin = requestOrigin(req, ctx.publicUrl);
  const url = req.url ?? '/';
  const method = req.method ?? 'GET';
  const headers = forwardedHeaders(req.headers, clientOrigin, upstream);
  // A compressed request body goes through untouched (rare; its links stay as the client wrote them).
  const linkRequest =
    carriesLinks(req.headers['content-type']) && contentCodingOf(req.headers['content-encoding']) === 'identity';
  // Rewriting links changes the entity's length; Node sends the headers of an Expect request at
  // once, so such a body goes chunked rather than under a length set later.
  if (linkRequest) delete headers['content-length'];
  const flight: Flight = {
    id,
    req,
    res,
    method,
    url,
    clientOrigin,
    origins: [upstream.origin, clientOrigin],
    out: upstreamRequest(upstream, method, url, headers),
    expecting: awaitingContinue.has(req),
    continued: false,
    continueFallback: undefined,
    requestCapture: new BodyCapture(
      ctx.threshold,
      () => writer.sidecar(id, 'request'),
      bodyRedactor(req.headers['content-type'], ctx.redacted),
    ),
    requestDone: Promise.resolve(),
    fail: (status, message) => {
      ctx.log(`record: ${method} ${url.split('?')[0]} failed: ${message}`);
      if (res.writableFinished) return; // the client has its whole answer already
      void sendAnswer(res, plainAnswer(status, message));
    },
  };
  relayContinue(flight);
  flight.out.on('error', (err) => flight.fail(502, upstreamFailure(upstream, err)));
  flight.requestDone = linkRequest ? forwardLinkBody(ctx, flight) : forwardStreamedBody(flight);
  flight.requestDone.catch((err: Error) => {
    if (res.headersSent) return; // the answer is under way; a body the client stopped sending does not matter
    flight.out.destroy();
    flight.fail(400, `request body: ${err.message}`);
  });
  return flight;
}

/**
 * Expect: 100-continue: the client holds its body until we say 100, and we say it when the upstream
 * does (or after a second, as RFC 9110 lets a client go on without it).
 */
function relayContinue(flight: Flight): void {
  if (!flight.expecting) return;
  const sayContinue = (): void => {
    if (flight.continued || flight.res.headersSent) return;
    flight.continued = true;
    flight.res.writeContinue();
  };
  flight.continueFallback = setTimeout(sayContinue, 1000).unref();
  flight.out.on('continue', () => {
    clearTimeout(flight.continueFallback);
    sayContinue();
  });
}

/** A body that carries links is held (it is small), our origin swapped for the upstream's, then sent. */
async function forwardLinkBody(ctx: ProxyContext, flight: Flight): Promise<void> {
  const body = await readBody(flight.req, MAX_LINK_BODY);
  flight.linkRequestBody = body;
  const forwarded = Buffer.from(
    replaceOrigins(body.toString('utf8'), [flight.clientOrigin], ctx.upstream.origin),
    'utf8',
  );
  if (!flight.out.headersSent) flight.out.setHeader('content-length', String(forwarded.length));
  flight.out.end(forwarded);
}

/** Any other body streams through; the copy for the recording has its multipart boundary made fixed. */
function forwardStreamedBody(flight: Flight): Promise<void> {
  const { req, out, requestCapture } = flight;
  const boundary = boundaryOf(req.headers['content-type']);
  req.pipe(out);
  return boundary
    ? pipeline(req, new ByteReplacer(boundary, MULTIPART_BOUNDARY), requestCapture)
    : pipeline(req, requestCapture);
}

/** Step 2, tap: the upstream's answer goes to the client, and a copy of it to the recording. */
function tap(ctx: ProxyContext, flight: Flight, upstreamRes: IncomingMessage): void {
  const { req, res, out, method } = flight;
  const status = upstreamRes.statusCode ?? 502;
  const responseHeaders = answerHeaders(
    res,
    returnedHeaders(upstreamRes.headers, ctx.upstream.origin, flight.clientOrigin),
  );
  clearTimeout(flight.continueFallback);
  if (!req.readableEnded) {
    // The upstream answered before the whole body arrived (a refusal): stop forwarding it, which
    // would stall on a request the upstream no longer reads, but keep capturing it.
    req.unpipe(out);
    upstreamRes.once('end', () => out.destroy());
  }
  // A final answer before 100 Continue: the client never sends the body it announced, so the
  // connection cannot carry another request (RFC 9110 section 10.1.1): close it after the answer.
  const bodySent = !flight.expecting || flight.continued;
  if (!bodySent) responseHeaders['connection'] = 'close';

  abandonOnClientClose(ctx, flight, upstreamRes);

  // Links are rewritten in XML and uri-list answers, decoded first if compressed (gzip, deflate,
  // br) and encoded again for the client; the recording keeps the decoded text. An encoding we
  // cannot open passes through untouched.
  const coding = contentCodingOf(upstreamRes.headers['content-encoding']);
  if (carriesLinks(upstreamRes.headers['content-type']) && coding !== undefined) {
    ctx.track(
      flight.id,
      readBody(upstreamRes, MAX_LINK_BODY).then(
        async (raw) => {
          const body = method === 'HEAD' ? raw : await decodeBody(raw, coding, MAX_LINK_BODY);
          const rewritten = Buffer.from(
            replaceOrigins(body.toString('utf8'), [ctx.upstream.origin], flight.clientOrigin),
            'utf8',
          );
          const forClient = await encodeBody(rewritten, coding);
          const length = method === 'HEAD' ? upstreamRes.headers['content-length'] : String(forClient.length);
          res.writeHead(status, { ...responseHeaders, ...(length !== undefined && { 'content-length': length }) });
          res.end(method === 'HEAD' ? undefined : forClient);
          const { 'content-encoding': _decoded, ...storedHeaders } = upstreamRes.headers;
          await persist(ctx, flight, bodySent, status, {
            body: linkBodyForRecording(body, flight.origins, ctx.redacted),
            headers: coding === 'identity' ? upstreamRes.headers : storedHeaders,
          });
        },
        (err: Error) => {
          if (!flight.abandoned) throw err;
        },
      ),
    );
    return;
  }
  const length = upstreamRes.headers['content-length'];
  res.writeHead(status, { ...responseHeaders, ...(length !== undefined && { 'content-length': length }) });
  const capture = new BodyCapture(
    ctx.threshold,
    () => ctx.writer.sidecar(flight.id, 'response'),
    bodyRedactor(upstreamRes.headers['content-type'], ctx.redacted),
  );
  flight.responseCapture = capture;
  upstreamRes.pipe(res);
  ctx.track(
    flight.id,
    pipeline(upstreamRes, capture).then(
      () =>
        persist(ctx, flight, bodySent, status, {
          body: capture.failure ? undefined : capture.stored(),
          headers: upstreamRes.headers,
        }),
      (err: Error) => {
        if (!flight.abandoned) throw err;
      },
    ),
  );
}

/**
 * A client that closes its connection before the whole answer gave up on it: the upstream request is
 * aborted (an endless or huge answer is not downloaded on), the exchange is not recorded, and its
 * partial sidecars are removed.
 */
function abandonOnClientClose(ctx: ProxyContext, flight: Flight, upstreamRes: IncomingMessage): void {
  flight.res.once('close', () => {
    // The whole answer was handed over already (the client may close as soon as it has it).
    if (flight.res.writableEnded || upstreamRes.complete) return;
    flight.abandoned = true;
    upstreamRes.destroy();
    flight.out.destroy();
    flight.responseCapture?.destroy();
    flight.requestCapture.destroy();
    ctx.log(
      `record: exchange ${flight.id} (${flight.method} ${flight.url.split('?')[0]}) not recorded: the client closed the connection before the whole answer; the upstream request was aborted`,
    );
    for (const side of ['request', 'response'] as const)
      void rm(ctx.writer.sidecar(flight.id, side).absolute, { force: true }).catch(() => undefined);
  });
}

/** Step 3, persist: once both sides are complete, the exchange becomes one line of the recording. */
async function persist(
  ctx: ProxyContext,
  flight: Flight,
  bodySent: boolean,
  status: number,
  response: { body: ReturnType<BodyCapture['stored']>; headers: IncomingHttpHeaders },
): Promise<void> {
  const { id, req, method, url, requestCapture } = flight;
  if (flight.abandoned) return;
  // The whole body, unless the upstream answered early and the client went away without it.
  const whole = bodySent && (await bodyArrives(req));
  if (whole) await flight.requestDone;
  // A sidecar that could not be written (a full disk): the client had its answer, the recording stops.
  const failure = requestCapture.failure ?? flight.responseCapture?.failure;
  if (failure) return ctx.writer.stop(`exchange ${id} (${method} ${url.split('?')[0]}): ${failure.message}`);
  for (const [side, capture] of [
    ['request', requestCapture],
    ['response', flight.responseCapture],
  ] as const) {
    if (capture?.omitted)
      ctx.log(
        `record: exchange ${id} (${method} ${url.split('?')[0]}): its ${side} body (${capture.bytes} bytes) is over the ${MAX_REDACTED_BODY / 1024 / 1024} MiB that can be redacted and is not kept`,
      );
  }
  const requestBody = !whole
    ? undefined
    : flight.linkRequestBody
      ? linkBodyForRecording(flight.linkRequestBody, flight.origins, ctx.redacted)
      : requestCapture.failure
        ? undefined
        : requestCapture.stored();
  await ctx.writer.add(
    toStoredExchange(
      {
        id,
        method,
        url,
        requestHeaders: req.headers,
        requestBody,
        status,
        responseHeaders: response.headers,
        responseBody: response.body,
        // A body not kept is matched as one that never arrived whole: without it.
        partialBody: !whole || requestCapture.omitted,
      },
      ctx.redacted,
      flight.origins,
    ),
  );
}

/** True once the request body has ended; false if its connection closes first. */
function bodyArrives(req: IncomingMessage): Promise<boolean> {
  if (req.readableEnded) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (whole: boolean) => (): void => {
      req.off('end', onEnd);
      req.socket.off('close', onClose);
      resolve(whole);
    };
    const onEnd = done(true);
    const onClose = done(false);
    req.once('end', onEnd);
    req.socket.once('close', onClose);
  });
}
