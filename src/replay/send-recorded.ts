import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { answerHeaders } from '../http/cors.js';
import { headerValue, type Exchange } from '../recording/format.js';
import { carriesLinks, fromToken, keptHeaders } from '../recording/normalise.js';
import { Sha256Check, openBodyFile, readBodyFile } from '../recording/sidecar-reader.js';

/**
 * The recorded response, byte for byte, with the base-URL token turned into our origin. Node frames
 * it: the recording's own framing and hop-by-hop headers are never sent. A body left on disk is
 * streamed from its sidecar (checked against its sha256 as it goes), never held whole.
 */
export async function sendRecorded(
  res: ServerResponse,
  exchange: Exchange,
  origin: string,
  method: string,
): Promise<void> {
  const { status, bodyFile } = exchange.response;
  const headers = keptHeaders(exchange.response.headers, true);
  let out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = Array.isArray(value) ? value.map((v) => fromToken(v, origin)) : fromToken(value, origin);
  }
  out = answerHeaders(res, out);
  const noBody = method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200);
  const links = carriesLinks(headerValue(headers, 'content-type'));
  if (bodyFile && !links && !noBody) {
    const stream = await openBodyFile(bodyFile);
    out['content-length'] = String(bodyFile.bytes);
    res.writeHead(status, out);
    // A sidecar changed since it was read ends the answer early (the client sees it cut short).
    await pipeline(stream, new Sha256Check(bodyFile.sha256), res);
    return;
  }
  const body = bodyFile && !noBody ? await readBodyFile(bodyFile) : exchange.response.body;
  const bytes = links ? Buffer.from(fromToken(body.toString('utf8'), origin), 'utf8') : body;
  if (!noBody) out['content-length'] = String(bytes.length);
  res.writeHead(status, out);
  res.end(noBody ? undefined : bytes);
}
