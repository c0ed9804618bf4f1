import type { IncomingMessage, ServerResponse } from 'node:http';
import { rm } from 'node:fs/promises';
import { answerHeaders } from '../http/cors.js';
import { BodyCapture, DEFAULT_SIDECAR_THRESHOLD } from '../recording/body-capture.js';
import { MAX_REDACTED_BODY, bodyRedactor } from '../recording/body-redactor.js';
import { linkBodyForRecording, toStoredExchange } from '../recording/exchange-record.js';
import { forward, type Flight, type ProxyContext, type RecorderOptions } from './forward-request.js';
import { relayAnswer, type RelayedAnswer } from './relay-answer.js';
import { returnedHeaders } from './upstream.js';

/** Requests whose 100 Continue is ours to send (server.ts routes 'checkContinue' here in record mode). */
const awaitingContinue = new WeakSet<IncomingMessage>();
export function markAwaitingContinue(req: IncomingMessage): void {
  awaitingContinue.add(req);
}

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
    const flight = forward(ctx, req, res, awaitingContinue.has(req));
    flight.out.on('response', (upstreamRes) => tap(ctx, flight, upstreamRes));
  }) as RecordingProxy;
  proxy.settled = async () => {
    await Promise.all([...pending]);
    await ctx.writer.flush();
  };
  return proxy;
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

  ctx.track(
    flight.id,
    relayAnswer(res, upstreamRes, {
      method,
      status,
      headers: responseHeaders,
      upstreamOrigin: ctx.upstream.origin,
      clientOrigin: flight.clientOrigin,
      redacted: ctx.redacted,
      capture: (contentType) =>
        new BodyCapture(
          ctx.threshold,
          () => ctx.writer.sidecar(flight.id, 'response'),
          bodyRedactor(contentType, ctx.redacted),
        ),
      onAbandon: () => abandon(ctx, flight),
    }).then((answer) => answer && persist(ctx, flight, bodySent, status, answer)),
  );
}

/**
 * A client that closes its connection before the whole answer gave up on it: the upstream request is
 * aborted (an endless or huge answer is not downloaded on), the exchange is not recorded, and its
 * partial sidecars are removed.
 */
function abandon(ctx: ProxyContext, flight: Flight): void {
  flight.abandoned = true;
  flight.out.destroy();
  flight.requestCapture.destroy();
  ctx.log(
    `record: exchange ${flight.id} (${flight.method} ${flight.url.split('?')[0]}) not recorded: the client closed the connection before the whole answer; the upstream request was aborted`,
  );
  for (const side of ['request', 'response'] as const)
    void rm(ctx.writer.sidecar(flight.id, side).absolute, { force: true }).catch(() => undefined);
}

/** Step 3, persist: once both sides are complete, the exchange becomes one line of the recording. */
async function persist(
  ctx: ProxyContext,
  flight: Flight,
  bodySent: boolean,
  status: number,
  response: RelayedAnswer,
): Promise<void> {
  const { id, req, method, url, requestCapture } = flight;
  if (flight.abandoned) return;
  // The whole body, unless the upstream answered early and the client went away without it.
  const whole = bodySent && (await bodyArrives(req));
  if (whole) await flight.requestDone;
  // A sidecar that could not be written (a full disk): the client had its answer, the recording stops.
  const failure = requestCapture.failure ?? response.capture?.failure;
  if (failure) return ctx.writer.stop(`exchange ${id} (${method} ${url.split('?')[0]}): ${failure.message}`);
  for (const [side, capture] of [
    ['request', requestCapture],
    ['response', response.capture],
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
