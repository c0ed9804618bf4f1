import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { BodyCapture, DEFAULT_SIDECAR_THRESHOLD } from '../recording/body-capture.js';
import { contentCodingOf, decodeBody, encodeBody } from './content-coding.js';
import { MULTIPART_BOUNDARY } from '../recording/format.js';
import { linkBodyForRecording, toStoredExchange } from '../recording/exchange-record.js';
import { ByteReplacer, boundaryOf, carriesLinks, replaceOrigins } from '../recording/normalise.js';
import type { RecordingWriter } from '../recording/recording-io.js';
import { forwardedHeaders, returnedHeaders, upstreamRequest, type Upstream } from './upstream.js';
import { readBody } from '../http/read-body.js';

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
  const threshold = options.sidecarThreshold ?? DEFAULT_SIDECAR_THRESHOLD;
  const log = options.log ?? (() => undefined);
  const { upstream, writer } = options;

  const proxy = ((req: IncomingMessage, res: ServerResponse) => {
    const id = writer.reserveId();
    const clientOrigin = options.publicUrl ?? `http://${req.headers.host ?? 'localhost'}`;
    const origins = [upstream.origin, clientOrigin];
    const url = req.url ?? '/';
    const method = req.method ?? 'GET';
    const requestType = req.headers['content-type'];
    const headers = forwardedHeaders(req.headers, clientOrigin, upstream);
    // A compressed request body goes through untouched (rare; its links stay as the client wrote them).
    const linkRequest = carriesLinks(requestType) && contentCodingOf(req.headers['content-encoding']) === 'identity';
    // Rewriting links changes the entity's length; Node sends the headers of an Expect request at
    // once, so such a body goes chunked rather than under a length set later.
    if (linkRequest) delete headers['content-length'];
    const fail = (status: number, message: string): void => {
      log(`record: ${method} ${url.split('?')[0]} failed: ${message}`);
      if (res.writableFinished) return; // the client has its whole answer already
      if (!res.headersSent)
        res.writeHead(status, { 'Content-Type': 'text/plain; charset=UTF-8' }).end(`${status} ${message}\n`);
      else res.destroy();
    };

    const out = upstreamRequest(upstream, method, url, headers);
    const requestCapture = new BodyCapture(threshold, () => writer.sidecar(id, 'request'));
    let responseCapture: BodyCapture | undefined;
    let linkRequestBody: Buffer | undefined;
    // Expect: 100-continue: the client holds its body until we say 100, and we say it when the
    // upstream does (or after a second, as RFC 9110 lets a client go on without it).
    const expecting = awaitingContinue.has(req);
    let continued = false;
    const sayContinue = (): void => {
      if (!expecting || continued || res.headersSent) return;
      continued = true;
      res.writeContinue();
    };
    const fallback = expecting ? setTimeout(sayContinue, 1000).unref() : undefined;
    out.on('continue', () => {
      clearTimeout(fallback);
      sayContinue();
    });
    out.on('error', (err) => fail(502, `upstream ${upstream.origin} did not answer: ${err.message}`));

    const requestDone: Promise<void> = linkRequest
      ? readBody(req, MAX_LINK_BODY).then((body) => {
          linkRequestBody = body;
          const forwarded = Buffer.from(replaceOrigins(body.toString('utf8'), [clientOrigin], upstream.origin), 'utf8');
          if (!out.headersSent) out.setHeader('content-length', String(forwarded.length));
          out.end(forwarded);
        })
      : (() => {
          const boundary = boundaryOf(requestType);
          req.pipe(out);
          // The copy for the recording: the boundary replaced by the fixed one as it streams.
          const capture = boundary
            ? pipeline(req, new ByteReplacer(boundary, MULTIPART_BOUNDARY), requestCapture)
            : pipeline(req, requestCapture);
          return capture;
        })();
    requestDone.catch((err: Error) => {
      if (res.headersSent) return; // the answer is under way; a body the client stopped sending does not matter
      out.destroy();
      fail(400, `request body: ${err.message}`);
    });

    out.on('response', (upstreamRes) => {
      const status = upstreamRes.statusCode ?? 502;
      const responseHeaders = returnedHeaders(upstreamRes.headers, upstream.origin, clientOrigin);
      clearTimeout(fallback);
      if (!req.readableEnded) {
        // The upstream answered before the whole body arrived (a refusal): stop forwarding it, which
        // would stall on a request the upstream no longer reads, but keep capturing it.
        req.unpipe(out);
        upstreamRes.once('end', () => out.destroy());
      }
      // A final answer before 100 Continue: the client never sends the body it announced, so the
      // connection cannot carry another request (RFC 9110 section 10.1.1): close it after the answer.
      const bodySent = !expecting || continued;
      if (!bodySent) responseHeaders['connection'] = 'close';
      const finish = async (
        responseBody: ReturnType<BodyCapture['stored']>,
        storedHeaders = upstreamRes.headers,
      ): Promise<void> => {
        // The whole body, unless the upstream answered early and the client went away without it.
        const whole = bodySent && (await bodyArrives(req));
        if (whole) await requestDone;
        // A sidecar that could not be written (a full disk): the client had its answer, the recording stops.
        const failure = requestCapture.failure ?? responseCapture?.failure;
        if (failure) return writer.stop(`exchange ${id} (${method} ${url.split('?')[0]}): ${failure.message}`);
        const requestBody = !whole
          ? undefined
          : linkRequestBody
            ? linkBodyForRecording(linkRequestBody, origins, options.redacted)
            : requestCapture.failure
              ? undefined
              : requestCapture.stored();
        await writer.add(
          toStoredExchange(
            {
              id,
              method,
              url,
              requestHeaders: req.headers,
              requestBody,
              status,
              responseHeaders: storedHeaders,
              responseBody,
              partialBody: !whole,
            },
            options.redacted,
            origins,
          ),
        );
      };
      const recorded = (p: Promise<void>): void => {
        const tracked = p.catch((err: Error) => log(`record: exchange ${id} not written: ${err.message}`));
        pending.add(tracked);
        void tracked.finally(() => pending.delete(tracked));
      };

      // Links are rewritten in XML and uri-list answers, decoded first if compressed (gzip, deflate,
      // br) and encoded again for the client; the recording keeps the decoded text. An encoding we
      // cannot open passes through untouched.
      const coding = contentCodingOf(upstreamRes.headers['content-encoding']);
      if (carriesLinks(upstreamRes.headers['content-type']) && coding !== undefined) {
        recorded(
          readBody(upstreamRes, MAX_LINK_BODY).then(async (raw) => {
            const body = method === 'HEAD' ? raw : await decodeBody(raw, coding, MAX_LINK_BODY);
            const rewritten = Buffer.from(
              replaceOrigins(body.toString('utf8'), [upstream.origin], clientOrigin),
              'utf8',
            );
            const forClient = await encodeBody(rewritten, coding);
            const length = method === 'HEAD' ? upstreamRes.headers['content-length'] : String(forClient.length);
            res.writeHead(status, { ...responseHeaders, ...(length !== undefined && { 'content-length': length }) });
            res.end(method === 'HEAD' ? undefined : forClient);
            const { 'content-encoding': _decoded, ...storedHeaders } = upstreamRes.headers;
            await finish(
              linkBodyForRecording(body, origins, options.redacted),
              coding === 'identity' ? upstreamRes.headers : storedHeaders,
            );
          }),
        );
        return;
      }
      const length = upstreamRes.headers['content-length'];
      res.writeHead(status, { ...responseHeaders, ...(length !== undefined && { 'content-length': length }) });
      responseCapture = new BodyCapture(threshold, () => writer.sidecar(id, 'response'));
      upstreamRes.pipe(res);
      const capture = responseCapture;
      recorded(pipeline(upstreamRes, capture).then(() => finish(capture.failure ? undefined : capture.stored())));
    });
  }) as RecordingProxy;
  proxy.settled = async () => {
    await Promise.all([...pending]);
    await writer.flush();
  };
  return proxy;
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
