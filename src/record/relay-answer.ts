import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { readBody } from '../http/read-body.js';
import type { BodyCapture } from '../recording/body-capture.js';
import { linkBodyForRecording } from '../recording/exchange-record.js';
import type { StoredBody } from '../recording/format.js';
import { carriesLinks, replaceOrigins } from '../recording/normalise.js';
import { contentCodingOf, decodeBody, encodeBody } from './content-coding.js';

/** Link-bearing entities are small; anything larger is refused rather than held. */
export const MAX_LINK_BODY = 16 * 1024 * 1024;

/** How the upstream's answer goes to the client and what of it the recording keeps. */
export interface RelayTarget {
  method: string;
  status: number;
  /** The client's headers (hop-by-hop dropped, links on our origin); the content length is set here. */
  headers: OutgoingHttpHeaders;
  upstreamOrigin: string;
  clientOrigin: string;
  /** Every name to keep out of the recording. */
  redacted: string[];
  /** Where a streamed answer's copy goes (to a sidecar file above the threshold). */
  capture(contentType: string | undefined): BodyCapture;
  /** The client closed before the whole answer; the upstream's answer is destroyed already. */
  onAbandon?(): void;
}

/** The answer as the recording keeps it; `capture` is a streamed answer's (its failure, an omitted body). */
export interface RelayedAnswer {
  body: StoredBody | undefined;
  headers: IncomingHttpHeaders;
  capture?: BodyCapture;
}

const withLength = (headers: OutgoingHttpHeaders, length: string | undefined): OutgoingHttpHeaders =>
  length === undefined ? headers : { ...headers, 'content-length': length };

/**
 * The upstream's answer to the client, and a copy for the recording. Links are rewritten in XML and uri-list
 * answers, decoded first if compressed (gzip, deflate, br) and encoded again for the client; the recording
 * keeps the decoded text. An encoding we cannot open, and any other body, streams to the client and into a
 * capture. A client that closes before the whole answer aborts the upstream's: resolves undefined.
 */
export async function relayAnswer(
  res: ServerResponse,
  upstreamRes: IncomingMessage,
  target: RelayTarget,
): Promise<RelayedAnswer | undefined> {
  let abandoned = false;
  let capture: BodyCapture | undefined;
  res.once('close', () => {
    // The whole answer was handed over already (the client may close as soon as it has it).
    if (res.writableEnded || upstreamRes.complete) return;
    abandoned = true;
    upstreamRes.destroy();
    capture?.destroy();
    target.onAbandon?.();
  });
  const { headers } = upstreamRes;
  try {
    const coding = contentCodingOf(headers['content-encoding']);
    if (carriesLinks(headers['content-type']) && coding !== undefined) {
      const head = target.method === 'HEAD';
      const raw = await readBody(upstreamRes, MAX_LINK_BODY);
      const body = head ? raw : await decodeBody(raw, coding, MAX_LINK_BODY);
      const rewritten = replaceOrigins(body.toString('utf8'), [target.upstreamOrigin], target.clientOrigin);
      const forClient = await encodeBody(Buffer.from(rewritten, 'utf8'), coding);
      res.writeHead(
        target.status,
        withLength(target.headers, head ? headers['content-length'] : `${forClient.length}`),
      );
      res.end(head ? undefined : forClient);
      const { 'content-encoding': _decoded, ...decodedHeaders } = headers;
      return {
        body: linkBodyForRecording(body, [target.upstreamOrigin, target.clientOrigin], target.redacted),
        headers: coding === 'identity' ? headers : decodedHeaders,
      };
    }
    res.writeHead(target.status, withLength(target.headers, headers['content-length']));
    capture = target.capture(headers['content-type']);
    upstreamRes.pipe(res);
    await pipeline(upstreamRes, capture);
    return { body: capture.failure ? undefined : capture.stored(), headers, capture };
  } catch (err) {
    if (abandoned) return undefined;
    throw err;
  }
}
