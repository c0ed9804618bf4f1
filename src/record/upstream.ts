import { request as httpRequest, type IncomingHttpHeaders, type RequestOptions } from 'node:http';
import { X509Certificate } from 'node:crypto';
import { createRequire } from 'node:module';
import { FileAccessError, readContainedFile } from '../files/contained-file.js';
import type { HeaderMap } from '../recording/format.js';
import { HOP_BY_HOP, SESSION_HEADER, replaceOrigins } from '../recording/normalise.js';

// node:https (with tls) is loaded on the first https upstream: serve never needs it.
const requireBuiltin = createRequire(import.meta.url);

export interface Upstream {
  url: URL;
  /** scheme://host[:port], as it appears in the upstream's absolute links. */
  origin: string;
  /** The upstream URL's path, prepended to every request path ('' for none). */
  basePath: string;
  /** --upstream-ca: the CA certificate(s) (PEM) trusted for an https upstream besides Node's own roots. */
  ca?: string;
}

/** Certificate files are small: anything larger is not one. */
const MAX_CA_BYTES = 1024 * 1024;

/** --upstream-ca: a regular file of at most 1 MiB holding a PEM certificate; undefined when not given. */
export async function readUpstreamCa(file: string | undefined): Promise<string | undefined> {
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = (await readContainedFile(file, { maxBytes: MAX_CA_BYTES })).toString('utf8');
  } catch (err) {
    throw new Error(
      `cannot read the upstream CA ${err instanceof FileAccessError ? err.message : `${file}: ${(err as Error).message}`}`,
    );
  }
  try {
    new X509Certificate(text);
  } catch {
    throw new Error(`--upstream-ca ${file} is not a PEM certificate`);
  }
  return text;
}

/** OpenSSL's codes for a certificate chain this process could not verify. */
const UNVERIFIED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
]);

/** The 502's text when the upstream cannot be reached: an unverifiable certificate names the cause and the option. */
export function upstreamFailure(upstream: Upstream, err: Error): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code !== undefined && UNVERIFIED.has(code))
    return `upstream ${upstream.origin} has a certificate this process cannot verify (${err.message}, ${code}): ${
      upstream.ca
        ? 'the --upstream-ca given does not vouch for it'
        : 'give the CA that signed it with --upstream-ca FILE (PEM)'
    }`;
  return `upstream ${upstream.origin} did not answer: ${err.message}`;
}

/**
 * The service's address as an option names it (`--upstream`, `--base-url`): an absolute http(s) URL without
 * credentials (the client sends its own); its path, without a trailing slash, prefixes every request path.
 */
export function parseServiceUrl(raw: string, option: string): { url: URL; origin: string; basePath: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${option} must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`${option} must be http or https, got "${raw}"`);
  if (url.username || url.password) throw new Error(`${option} must not carry credentials; the client sends its own`);
  return { url, origin: url.origin, basePath: url.pathname.replace(/\/+$/, '') };
}

export const parseUpstream = (raw: string, ca?: string): Upstream => ({ ...parseServiceUrl(raw, '--upstream'), ca });

/** The client's headers for the upstream: hop-by-hop and ours dropped, our origin turned into the upstream's. */
export function forwardedHeaders(
  headers: IncomingHttpHeaders | HeaderMap,
  clientOrigin: string,
  upstream: Upstream,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value === undefined || HOP_BY_HOP.includes(lower) || lower === SESSION_HEADER) continue;
    out[lower] =
      lower === 'content-location' || lower === 'destination'
        ? replaceOrigins(String(value), [clientOrigin], upstream.origin)
        : value;
  }
  out['host'] = upstream.url.host;
  return out;
}

/** The upstream's response headers for the client: hop-by-hop dropped, its origin turned into ours. */
export function returnedHeaders(
  headers: IncomingHttpHeaders | HeaderMap,
  upstreamOrigin: string,
  clientOrigin: string,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value === undefined || (HOP_BY_HOP.includes(lower) && lower !== 'connection') || lower === 'content-length')
      continue;
    if (lower === 'connection' && !/close/i.test(String(value))) continue;
    out[lower] =
      lower === 'location' || lower === 'content-location'
        ? replaceOrigins(String(value), [upstreamOrigin], clientOrigin)
        : value;
  }
  return out;
}

export function upstreamRequest(
  upstream: Upstream,
  method: string,
  url: string,
  headers: Record<string, string | string[]>,
) {
  const options: RequestOptions = {
    method,
    host: upstream.url.hostname,
    port: upstream.url.port || undefined,
    path: `${upstream.basePath}${url}`,
    headers,
  };
  if (upstream.url.protocol !== 'https:') return httpRequest(options);
  const https = requireBuiltin('node:https') as typeof import('node:https');
  if (upstream.ca === undefined) return https.request(options);
  // Node's `ca` replaces its roots: keep them, and add the given one.
  const { rootCertificates } = requireBuiltin('node:tls') as typeof import('node:tls');
  return https.request({ ...options, ca: [...rootCertificates, upstream.ca] });
}
