import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PlainRequest } from '../http/in-process-http.js';
import { decodeInlineBody, encodeBody } from '../recording/body-encoding.js';
import { linkBodyForRecording, toStoredExchange } from '../recording/exchange-record.js';
import { headerValue, type Exchange, type Recording } from '../recording/format.js';
import { carriesLinks, replaceOrigins } from '../recording/normalise.js';
import { RecordingWriter } from '../recording/recording-io.js';
import { forwardBuffered, returnedHeaders, type Upstream } from '../record/upstream.js';

export interface MissRecorder {
  /** Sends a missed request to the upstream, answers the client, and returns the new exchange. */
  (req: IncomingMessage, res: ServerResponse, request: PlainRequest, origin: string): Promise<Exchange>;
}

/**
 * Replay's 'proxy' policy: a miss goes to the upstream, the client gets its answer (links on our
 * origin), and the exchange is appended to the recording (file and memory) like a recorded one.
 */
export function missRecorder(upstream: Upstream, recording: Recording, given?: RecordingWriter): MissRecorder {
  let writer = given;
  return async (req, res, request, origin) => {
    const answer = await forwardBuffered(upstream, request, origin);
    writer ??= recording.file ? await RecordingWriter.open(recording.file, recording.redacted, true) : undefined;
    const id = writer?.reserveId() ?? Math.max(0, ...recording.exchanges.map((e) => e.id)) + 1;
    const origins = [upstream.origin, origin];
    const store = (body: Buffer, type: string | undefined) =>
      carriesLinks(type) ? linkBodyForRecording(body, origins, recording.redacted) : encodeBody(body);
    const stored = toStoredExchange(
      {
        id,
        method: request.method,
        url: request.url,
        requestHeaders: req.headers,
        requestBody: store(request.body, req.headers['content-type']),
        status: answer.status,
        responseHeaders: answer.headers,
        responseBody: store(answer.body, headerValue(answer.headers, 'content-type')),
      },
      recording.redacted,
      origins,
    );
    await writer?.add(stored);
    const exchange: Exchange = {
      ...stored,
      request: { ...stored.request, body: decodeInlineBody(stored.request.body) },
      response: { ...stored.response, body: decodeInlineBody(stored.response.body) },
    };
    recording.exchanges.push(exchange);

    const linked = carriesLinks(headerValue(answer.headers, 'content-type'));
    const body = linked
      ? Buffer.from(replaceOrigins(answer.body.toString('utf8'), [upstream.origin], origin), 'utf8')
      : answer.body;
    res.writeHead(answer.status, {
      ...returnedHeaders(answer.headers, upstream.origin, origin),
      'content-length': String(body.length),
    });
    res.end(request.method === 'HEAD' ? undefined : body);
    return exchange;
  };
}
