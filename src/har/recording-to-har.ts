import { isText } from '../recording/body-encoding.js';
import { headerValue, type Exchange, type Recording } from '../recording/format.js';
import { carriesLinks, fromToken, headersFromToken } from '../recording/normalise.js';
import {
  harEntry,
  harHeaders,
  harLog,
  statusText,
  type Har,
  type HarContent,
  type HarEntry,
  type HarPostData,
} from './har-types.js';

/** A body as HAR text: links on `origin` in link-bearing text, binary as base64. */
function bodyText(body: Buffer, contentType: string | undefined, origin: string): { text: string; base64: boolean } {
  if (!isText(body)) return { text: body.toString('base64'), base64: true };
  const text = body.toString('utf8');
  return { text: carriesLinks(contentType) ? fromToken(text, origin) : text, base64: false };
}

function postDataOf(exchange: Exchange, origin: string): HarPostData | undefined {
  const { body, headers } = exchange.request;
  if (body.length === 0) return undefined;
  const mimeType = headerValue(headers, 'content-type') ?? '';
  const { text, base64 } = bodyText(body, mimeType, origin);
  return { mimeType, text, ...(base64 && { _encoding: 'base64' }) };
}

function contentOf(exchange: Exchange, origin: string): HarContent {
  const { body, headers } = exchange.response;
  const mimeType = headerValue(headers, 'content-type') ?? '';
  if (body.length === 0) return { size: 0, mimeType };
  const { text, base64 } = bodyText(body, mimeType, origin);
  return { size: body.length, mimeType, text, ...(base64 && { encoding: 'base64' }) };
}

/** One recorded exchange as a HAR entry. Recordings keep no timings: they are 0. */
export function exchangeToHarEntry(exchange: Exchange, origin: string, started: string): HarEntry {
  const { request, response } = exchange;
  const query = new URLSearchParams(request.query).toString();
  const responseHeaders = headersFromToken(response.headers, origin);
  const postData = postDataOf(exchange, origin);
  return harEntry(
    started,
    0,
    {
      method: request.method,
      url: `${origin}${request.path}${query ? `?${query}` : ''}`,
      headers: harHeaders(headersFromToken(request.headers, origin)),
      queryString: request.query.map(([name, value]) => ({ name, value })),
      ...(postData && { postData }),
      bodySize: request.body.length,
    },
    {
      status: response.status,
      statusText: statusText(response.status),
      headers: harHeaders(responseHeaders),
      content: contentOf(exchange, origin),
      redirectURL: headerValue(responseHeaders, 'location') ?? '',
    },
    {
      comment: `exchange ${exchange.id}`,
      ...(exchange.user !== undefined && { _user: exchange.user }),
      ...(exchange.session !== undefined && { _session: exchange.session }),
    },
  );
}

/**
 * A recording (bodies read in) as a HAR 1.2 log: links and headers on `baseUrl`, as a replay on that
 * origin would send them. Credentials were never recorded, so none are in it.
 */
export function recordingToHar(recording: Recording, baseUrl: string): Har {
  const origin = baseUrl.replace(/\/+$/, '');
  const started = recording.created ?? new Date(0).toISOString();
  return harLog(
    recording.exchanges.map((e) => exchangeToHarEntry(e, origin, started)),
    recording.created ? `a csp-mock recording made ${recording.created}` : 'a csp-mock recording of unknown age',
  );
}
