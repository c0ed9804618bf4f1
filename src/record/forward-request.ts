import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { plainAnswer, sendAnswer } from '../http/answer.js';
import { readBody } from '../http/read-body.js';
import { requestOrigin } from '../http/request-origin.js';
import { BodyCapture } from '../recording/body-capture.js';
import { bodyRedactor } from '../recording/body-redactor.js';
import { MULTIPART_BOUNDARY } from '../recording/format.js';
import { ByteReplacer, boundaryOf, carriesLinks, replaceOrigins } from '../recording/normalise.js';
import type { RecordingWriter } from '../recording/recording-io.js';
import { contentCodingOf } from './content-coding.js';
import { MAX_LINK_BODY } from './relay-answer.js';
import { forwardedHeaders, upstreamFailure, upstreamRequest, type Upstream } from './upstream.js';

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

/** What every exchange shares: the options, with defaults, and where a pending write is tracked. */
export interface ProxyContext extends RecorderOptions {
  threshold: number;
  log: (line: string) => void;
  track(id: number, written: Promise<void>): void;
}

/** One exchange in flight, from the client's request to the recording's line. */
export interface Flight {
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
  requestDone: Promise<void>;
  /** The client closed its connection before the whole answer: nothing of this exchange is recorded. */
  abandoned?: boolean;
  fail(status: number, message: string): void;
}

/** Step 1, forward: the request goes to the upstream, its body streamed (or rewritten, if it carries links). */
export function forward(ctx: ProxyContext, req: IncomingMessage, res: ServerResponse, expecting: boolean): Flight {
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
    expecting,
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
