import { rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname } from 'node:path';
import { answerHeaders } from '../http/cors.js';
import type { PlainRequest } from '../http/in-process-http.js';
import { BodyCapture, DEFAULT_SIDECAR_THRESHOLD, type SidecarTarget } from '../recording/body-capture.js';
import { bodyRedactor } from '../recording/body-redactor.js';
import { decodeInlineBody } from '../recording/body-encoding.js';
import { recordWholeBody, toStoredExchange } from '../recording/exchange-record.js';
import { headerValue, type Exchange, type Recording, type StoredBody } from '../recording/format.js';
import { RecordingWriter } from '../recording/recording-io.js';
import { relayAnswer } from '../record/relay-answer.js';
import { forwardedHeaders, returnedHeaders, upstreamRequest, type Upstream } from '../record/upstream.js';

export interface MissRecorder {
  /**
   * Sends a missed request to the upstream, streams its answer to the client and to the recording,
   * and returns the new exchange (undefined when the client gave up before the whole answer).
   */
  (req: IncomingMessage, res: ServerResponse, request: PlainRequest, origin: string): Promise<Exchange | undefined>;
}

/** A recording without a file (built in memory) holds its bodies in memory: there is nowhere else. */
const NO_SIDECAR = Number.POSITIVE_INFINITY;

/**
 * Replay's 'proxy' policy: a miss goes to the upstream, the client gets its answer as it arrives
 * (links on our origin), and the exchange is appended to the recording like a recorded one: bodies
 * above the sidecar threshold streamed to sidecar files, never held whole. A client that closes
 * before the whole answer aborts the upstream request, and nothing is recorded.
 */
export function missRecorder(
  upstream: Upstream,
  recording: Recording,
  given?: RecordingWriter,
  closing?: AbortSignal,
): MissRecorder {
  let writer = given;
  let localId = Math.max(0, ...recording.exchanges.map((e) => e.id));
  return async (req, res, request, origin) => {
    writer ??= recording.file ? await RecordingWriter.open(recording.file, recording.redacted, true) : undefined;
    const id = writer?.reserveId() ?? ++localId;
    const threshold = writer ? DEFAULT_SIDECAR_THRESHOLD : NO_SIDECAR;
    const sidecar = (side: 'request' | 'response') => (): SidecarTarget => writer!.sidecar(id, side);
    const origins = [upstream.origin, origin];

    const headers = forwardedHeaders(request.headers, origin, upstream);
    delete headers['expect'];
    headers['content-length'] = String(request.body.length);
    const out = upstreamRequest(upstream, request.method, request.url, headers);
    const answered = new Promise<IncomingMessage>((resolve, reject) => {
      out.once('response', resolve);
      out.once('error', reject);
    });
    out.end(request.body);
    // A client gone before the upstream answers takes the upstream request with it, and so does closing the
    // mock: closing waits for answers under way, never for an upstream that does not answer.
    const giveUp = (): void =>
      void (res.headersSent || out.destroy(new Error('the mock closed before the upstream answered')));
    res.once('close', giveUp);
    closing?.addEventListener('abort', giveUp, { once: true });
    const upstreamRes = await answered.finally(() => closing?.removeEventListener('abort', giveUp));
    const status = upstreamRes.statusCode ?? 502;
    const answer = await relayAnswer(res, upstreamRes, {
      method: request.method,
      status,
      headers: answerHeaders(res, returnedHeaders(upstreamRes.headers, upstream.origin, origin)),
      upstreamOrigin: upstream.origin,
      clientOrigin: origin,
      redacted: recording.redacted,
      capture: (contentType) =>
        new BodyCapture(threshold, sidecar('response'), bodyRedactor(contentType, recording.redacted)),
    });
    const failure = answer?.capture?.failure;
    if (!answer || failure) {
      if (writer) await rm(writer.sidecar(id, 'response').absolute, { force: true });
      if (failure) writer?.stop(`exchange ${id}: ${failure.message}`);
      return undefined;
    }

    // A request body whose sidecar cannot be written is left out; the answer is recorded all the same.
    const requestBody = await recordWholeBody(request.body, headerValue(request.headers, 'content-type'), 'request', {
      redacted: recording.redacted,
      origins,
      threshold,
      sidecar: sidecar('request'),
    }).catch(() => undefined);
    const stored = toStoredExchange(
      {
        id,
        method: request.method,
        url: request.url,
        requestHeaders: req.headers,
        requestBody,
        status,
        responseHeaders: answer.headers,
        responseBody: answer.body,
      },
      recording.redacted,
      origins,
    );
    await writer?.add(stored);
    const inMemory = (body: StoredBody | undefined, side: 'request' | 'response') => {
      if (!body || !('file' in body)) return { body: decodeInlineBody(body) };
      const path = writer!.sidecar(id, side).absolute;
      return {
        body: Buffer.alloc(0),
        bodyFile: { path, folder: dirname(path), bytes: body.bytes, sha256: body.sha256 },
      };
    };
    const exchange: Exchange = {
      ...stored,
      request: { ...stored.request, ...inMemory(stored.request.body, 'request') },
      response: { ...stored.response, ...inMemory(stored.response.body, 'response') },
    };
    recording.exchanges.push(exchange);
    return exchange;
  };
}
