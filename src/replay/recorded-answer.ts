import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { Answer } from '../http/answer.js';
import { answerHeaders } from '../http/cors.js';
import type { PlainResponse } from '../http/plain-exchange.js';
import { headerValue, type Exchange } from '../recording/format.js';
import { carriesLinks, fromToken, headersFromToken, keptHeaders } from '../recording/normalise.js';
import { Sha256Check, openBodyFile, readBodyFile } from '../recording/sidecar-reader.js';

const bodiless = (method: string, status: number): boolean =>
  method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200);

/**
 * The recorded response, byte for byte, with the base-URL token turned into our origin. Node frames
 * it: the recording's own framing and hop-by-hop headers are never sent. A body left on disk is
 * streamed from its sidecar (checked against its sha256 as it goes: a sidecar changed since it was read
 * ends the answer early, and the client sees it cut short), never held whole.
 */
export async function recordedAnswer(
  res: ServerResponse,
  exchange: Exchange,
  origin: string,
  method: string,
): Promise<Answer> {
  const { status, bodyFile } = exchange.response;
  const kept = keptHeaders(exchange.response.headers, true);
  const headers = answerHeaders(res, headersFromToken(kept, origin));
  if (bodiless(method, status)) return { status, headers };
  const links = carriesLinks(headerValue(kept, 'content-type'));
  if (bodyFile && !links) {
    const checked = new Sha256Check(bodyFile.sha256);
    pipeline(await openBodyFile(bodyFile), checked).catch(() => undefined);
    return { status, headers: { ...headers, 'content-length': String(bodyFile.bytes) }, body: { stream: checked } };
  }
  const body = bodyFile ? await readBodyFile(bodyFile) : exchange.response.body;
  return { status, headers, body: links ? fromToken(body.toString('utf8'), origin) : body };
}

/** An answer the emulator gave in-process (a replay miss emulated), as it gave it, framed anew. */
export function emulatedAnswer(res: ServerResponse, answer: PlainResponse, method: string): Answer {
  const headers = answerHeaders(res, keptHeaders(answer.headers, true));
  return { status: answer.status, headers, body: bodiless(method, answer.status) ? undefined : answer.body };
}
