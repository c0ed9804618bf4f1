import type { IncomingHttpHeaders } from 'node:http';
import { parseBasicAuth } from '../http/auth.js';
import { encodeBody, inlineBytes } from './body-encoding.js';
import { pipeline } from 'node:stream/promises';
import { BodyCapture, type SidecarTarget } from './body-capture.js';
import { bodyRedactor } from './body-redactor.js';
import { MULTIPART_BOUNDARY, type HeaderMap, type StoredBody, type StoredExchange } from './format.js';
import {
  SESSION_HEADER,
  boundaryOf,
  carriesLinks,
  keptHeaders,
  normaliseHeaders,
  replaceBytes,
  toToken,
} from './normalise.js';
import { REDACTED, dropSecretHeaders, dropSecretPairs, redactBody, redactXmlElements } from '../http/redaction.js';
import { headerValue } from './format.js';
import { splitUrl } from './request-key.js';

/** Who sent a request: the Basic login (never the password) and the X-Mock-Session header. */
export function identify(headers: IncomingHttpHeaders | HeaderMap): { user?: string; session?: string } {
  const auth = headers['authorization'];
  const user = parseBasicAuth(Array.isArray(auth) ? auth[0] : auth)?.user;
  const raw = headers[SESSION_HEADER];
  const session = Array.isArray(raw) ? raw[0] : raw;
  return { ...(user && { user }), ...(session && { session }) };
}

/** A link-bearing body (XML, uri-list) as stored: origins tokenised, secrets redacted. */
export function linkBodyForRecording(
  body: Buffer,
  origins: readonly string[],
  redacted: readonly string[],
): StoredBody | undefined {
  if (body.length === 0) return undefined;
  return encodeBody(
    Buffer.from(redactXmlElements(toToken(body.toString('utf8'), origins), redacted, REDACTED), 'utf8'),
  );
}

/** Where a body held whole is recorded: what record's capture of a streamed body would need. */
export interface WholeBodyTarget {
  redacted: readonly string[];
  /** Origins that become the base-URL token in links. */
  origins: readonly string[];
  threshold: number;
  sidecar: () => SidecarTarget;
}

/**
 * A body held whole (a HAR entry's, a request replay proxied) stored as the recorder stores a streamed one:
 * links tokenised, a request's multipart boundary fixed, secrets redacted, over the threshold in its sidecar.
 * A sidecar that cannot be written (a full disk) rejects.
 */
export async function recordWholeBody(
  body: Buffer,
  contentType: string | undefined,
  side: 'request' | 'response',
  to: WholeBodyTarget,
): Promise<StoredBody | undefined> {
  if (carriesLinks(contentType)) return linkBodyForRecording(body, to.origins, to.redacted);
  const boundary = side === 'request' ? boundaryOf(contentType) : undefined;
  const capture = new BodyCapture(to.threshold, to.sidecar, bodyRedactor(contentType, to.redacted));
  await pipeline([boundary ? replaceBytes(body, boundary, MULTIPART_BOUNDARY) : body], capture);
  if (capture.failure) throw capture.failure;
  return capture.stored();
}

/** A stored body with secret JSON members, form pairs, multipart text fields and XML elements replaced (sidecars as they are). */
function redactStoredBody(
  body: StoredBody | undefined,
  contentType: string | undefined,
  names: readonly string[],
): StoredBody | undefined {
  const bytes = inlineBytes(body);
  if (!body || !bytes) return body;
  const redacted = redactBody(bytes, contentType, names, REDACTED);
  return redacted === bytes ? body : encodeBody(redacted);
}

export interface CapturedExchange {
  id: number;
  method: string;
  /** Path and query as the client sent them. */
  url: string;
  requestHeaders: IncomingHttpHeaders | HeaderMap;
  requestBody: StoredBody | undefined;
  status: number;
  responseHeaders: IncomingHttpHeaders | HeaderMap;
  responseBody: StoredBody | undefined;
  /** The upstream answered before the request body was complete (see StoredRequest.partialBody). */
  partialBody?: boolean;
}

/** One exchange in its stored form: redacted first, then normalised; nothing secret survives. */
export function toStoredExchange(
  c: CapturedExchange,
  redacted: readonly string[],
  origins: readonly string[],
): StoredExchange {
  const { path, query } = splitUrl(c.url);
  const requestHeaders = normaliseHeaders(dropSecretHeaders(keptHeaders(c.requestHeaders), redacted), origins);
  const responseHeaders = normaliseHeaders(dropSecretHeaders(keptHeaders(c.responseHeaders, true), redacted), origins);
  return {
    id: c.id,
    ...identify(c.requestHeaders),
    request: {
      method: c.method.toUpperCase(),
      path,
      query: dropSecretPairs(query, redacted),
      headers: requestHeaders,
      ...(c.requestBody && {
        body: redactStoredBody(c.requestBody, headerValue(requestHeaders, 'content-type'), redacted),
      }),
      ...(c.partialBody && { partialBody: true }),
    },
    response: {
      status: c.status,
      headers: responseHeaders,
      ...(c.responseBody && {
        body: redactStoredBody(c.responseBody, headerValue(responseHeaders, 'content-type'), redacted),
      }),
    },
  };
}
