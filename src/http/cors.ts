import type { Request, RequestHandler, Response } from 'express';
import type { ServerResponse } from 'node:http';
import { HttpError } from './errors.js';
import { SERVICE_METHODS } from './methods.js';

/**
 * Which web pages may call the service from a browser (CORS). Loopback pages (a dev server on
 * localhost) always may; others only when listed. The admin API never answers another origin.
 */
export interface CorsPolicy {
  /** Origins allowed besides the loopback ones, as resolveCorsOrigins made them; "*" allows any. */
  origins: readonly string[];
  /** --public-url: a page on its origin is the mock's own. */
  publicUrl?: string;
  /** Whether this preflight goes on to the fault rules (the active scenario names OPTIONS) instead of an answer here. */
  preflightFaulted?: (req: Request) => boolean;
}

/** A page may send every method the service and WebDAV have. */
export const CORS_METHODS = SERVICE_METHODS;

/** Answer headers a client reads beyond the CORS-safelisted ones (the service's, WebDAV's, a fault's Retry-After, ours). */
export const EXPOSED_HEADERS = [
  'Location',
  'Content-Location',
  'ETag',
  'Last-Modified',
  'Content-Range',
  'Content-Length',
  'Content-Disposition',
  'Accept-Ranges',
  'Retry-After',
  'Date',
  'DAV',
  'Allow',
  'Lock-Token',
  'MS-Author-Via',
  'WWW-Authenticate',
  'X-Cloud-Depth',
  'X-CDMI-Specification-Version',
  'X-Csp-Mock-Replay',
];

/** How long a browser may keep a preflight's answer (Chromium caps it at 2 hours). */
export const PREFLIGHT_MAX_AGE_SECONDS = 600;
/** Bounds of Access-Control-Request-Headers: a browser sends a short list of names. */
const MAX_REQUEST_HEADERS_LENGTH = 2048;
const MAX_ORIGIN_LENGTH = 1024;

const ALLOW_METHODS = CORS_METHODS.join(', ');
const EXPOSE = EXPOSED_HEADERS.join(', ');
/** A header name or a method: an RFC 9110 token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** The service's surfaces, alone or in a tenant (/t/<name>/...): the admin API is never one. */
const SERVICE_PATH = /^(?:\/t\/[a-z0-9-]{1,40})?\/(?:v2|dav|cdmi)(?:[/?]|$)/;
/** http(s)://localhost, *.localhost, 127.0.0.1 or [::1], any port: pages of this machine. */
const LOOPBACK_ORIGIN = /^https?:\/\/(?:(?:[a-z0-9-]+\.)*localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?$/i;

/**
 * Listed origins as a browser sends them: scheme://host[:port], lower case, without a default port.
 * Anything else (a path, credentials, "null", another scheme) names the field and the value.
 */
export function resolveCorsOrigins(given: readonly string[], field = 'corsOrigins'): string[] {
  if (!Array.isArray(given)) throw new Error(`${field} must be a list of origins, got ${JSON.stringify(given)}`);
  return given.map((value: unknown) => {
    if (value === '*') return '*';
    let url: URL | undefined;
    try {
      url = typeof value === 'string' ? new URL(value) : undefined;
    } catch {
      url = undefined;
    }
    if (
      !url ||
      (url.protocol !== 'http:' && url.protocol !== 'https:') ||
      url.username ||
      url.password ||
      url.pathname !== '/' ||
      url.search ||
      url.hash ||
      /[/?#]./.test(String(value).replace(/^[a-z]+:\/\//i, ''))
    ) {
      throw new Error(
        `${field} ${JSON.stringify(value)} is not an origin: give scheme://host[:port] without a path (e.g. https://app.example.test), or "*"`,
      );
    }
    return url.origin;
  });
}

/** The page's origin is the mock's own: the Host it reached, or the public URL's origin. */
function isOwnOrigin(origin: string, host: string | undefined, publicUrl: string | undefined): boolean {
  const scheme = origin.indexOf('://');
  if (scheme < 0) return false;
  if (host !== undefined && origin.slice(scheme + 3).toLowerCase() === host.toLowerCase()) return true;
  return publicUrl !== undefined && origin.toLowerCase() === new URL(publicUrl).origin;
}

/** CORS headers present on an answer (a fault's `cors: "drop"` removes them all). */
export function dropCorsHeaders(res: Response): void {
  for (const name of res.getHeaderNames()) if (name.startsWith('access-control-')) res.removeHeader(name);
}

/**
 * Headers a recording or an upstream gives an answer, for this answer: their own CORS headers (the real
 * service's policy, for other origins) never go out, ours stay; their Vary joins ours.
 */
export function answerHeaders(
  res: ServerResponse,
  headers: Record<string, string | string[]>,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower.startsWith('access-control-')) continue;
    if (lower === 'vary') {
      const ours = res.getHeader('vary');
      out[name] = ours === undefined ? value : `${String(ours)}, ${String(value)}`;
      continue;
    }
    out[name] = value;
  }
  return out;
}

/** The names a preflight asks for, checked (header-name tokens, bounded); undefined when malformed. */
function requestedHeaders(value: string | undefined): string[] | undefined {
  if (value === undefined) return [];
  if (value.length > MAX_REQUEST_HEADERS_LENGTH) return undefined;
  const names: string[] = [];
  for (const part of value.split(',')) {
    const name = part.trim();
    if (name === '') continue;
    if (!TOKEN.test(name)) return undefined;
    names.push(name);
  }
  return names;
}

/** The preflight's own headers, on an answer that still carries the page's Allow-Origin (a fault may have dropped it). */
function answerPreflight(req: Request, res: Response, headers: readonly string[]): void {
  res.vary('Access-Control-Request-Method');
  res.vary('Access-Control-Request-Headers');
  if (res.hasHeader('Access-Control-Allow-Origin')) {
    res.setHeader('Access-Control-Allow-Methods', ALLOW_METHODS);
    if (headers.length > 0) res.setHeader('Access-Control-Allow-Headers', headers.join(', '));
    res.setHeader('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
    // Chromium's Private Network Access: a listed page on a public address may reach this local one.
    if (req.headers['access-control-request-private-network'] === 'true')
      res.setHeader('Access-Control-Allow-Private-Network', 'true');
    res.removeHeader('Access-Control-Expose-Headers');
  }
  res.status(204).end();
}

export interface CorsSteps {
  /**
   * After the Host check, before the journal, auth and faults: on the service's paths, a request from an
   * allowed page gets its CORS headers (every answer then carries them), its preflight is answered here;
   * a request from any other page (a foreign or a "null" origin) is refused with 403.
   */
  headers: RequestHandler;
  /** After the fault rules: answers a preflight the active scenario's rules could fault (they name OPTIONS) and did not. */
  answeredHeld(req: Request, res: Response): boolean;
}

export function cors(policy: CorsPolicy): CorsSteps {
  const listed = new Set(policy.origins);
  const any = listed.has('*');
  const allowed = (origin: string): boolean =>
    origin.length <= MAX_ORIGIN_LENGTH && (LOOPBACK_ORIGIN.test(origin) || listed.has(origin) || any);
  const headers: RequestHandler = (req, res, next) => {
    const origin = req.headers.origin;
    if (origin === undefined || !SERVICE_PATH.test(req.url)) return next();
    res.vary('Origin');
    if (origin !== 'null' && allowed(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
      res.setHeader('Access-Control-Expose-Headers', EXPOSE);
    } else if (!isOwnOrigin(origin, req.headers.host, policy.publicUrl)) {
      return next(refused(origin));
    }
    if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined) return next();
    const method = req.headers['access-control-request-method'];
    const names = requestedHeaders(req.headers['access-control-request-headers']);
    if (!TOKEN.test(method) || method.length > 32)
      return next(new HttpError(400, `Access-Control-Request-Method ${JSON.stringify(method)} is not a method`));
    if (names === undefined)
      return next(
        new HttpError(
          400,
          `Access-Control-Request-Headers must be a comma-separated list of header names, at most ${MAX_REQUEST_HEADERS_LENGTH} characters`,
        ),
      );
    if (policy.preflightFaulted?.(req)) {
      res.locals.heldPreflight = names;
      return next();
    }
    answerPreflight(req, res, names);
  };
  const answeredHeld = (req: Request, res: Response): boolean => {
    const names = res.locals.heldPreflight;
    if (names !== undefined) answerPreflight(req, res, names);
    return names !== undefined;
  };
  return { headers, answeredHeld };
}

function refused(origin: string): HttpError {
  const shown = origin.length > 200 ? `${origin.slice(0, 200)}...` : origin;
  return new HttpError(
    403,
    origin === 'null'
      ? 'requests from an opaque origin (Origin: null: a sandboxed page or a file) are refused'
      : `Origin ${JSON.stringify(shown)} is not allowed (CORS); start csp-mock with --cors-origin ${shown} (option corsOrigins) to allow it`,
  );
}

/** Whether a request is a preflight held for the fault rules (only rules naming OPTIONS may match it). */
export function isHeldPreflight(res: Response): boolean {
  return res.locals.heldPreflight !== undefined;
}
