import type { Request, RequestHandler } from 'express';
import { sameSecret } from '../http/auth.js';
import { HttpError } from '../http/errors.js';
import { mediaTypeOf } from '../http/media-type.js';

export interface AdminGuardOptions {
  publicUrl?: string;
}

/** The admin token, if one is configured (admin-router applies it after the inspector's token-free static page). */
export function adminTokenCheck(token: string | undefined): RequestHandler {
  return (req, _res, next) => {
    if (token === undefined) return next();
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
    const given =
      bearer ?? (typeof req.headers['x-admin-token'] === 'string' ? req.headers['x-admin-token'] : undefined);
    if (given !== undefined && sameSecret(given, token)) return next();
    next(
      new HttpError(401, 'admin token required', { headers: { 'WWW-Authenticate': 'Bearer realm="csp-mock admin"' } }),
    );
  };
}

/**
 * Every admin call, reads included, must come from our own origin or from a tool. A browser names the
 * page behind a request (Sec-Fetch-Site, Origin, Referer), so a page on another site can neither change
 * the mock (a form) nor hold its waits and event streams or read its journal (an <img>, a fetch, an
 * EventSource). Tools (curl, a test suite) send none of these and pass. The one exception is a top-level
 * navigation to the inspector page (someone follows a link to it): the page holds no state, and its own
 * calls are same-origin.
 */
function sameOriginCheck(publicUrl: string | undefined): RequestHandler {
  return (req, _res, next) => {
    if (isInspectorNavigation(req)) return next();
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none')
      return next(new HttpError(403, `admin calls from other sites are refused (Sec-Fetch-Site: ${site})`));
    const origin = req.headers.origin;
    if (origin !== undefined && !isOwnOrigin(origin, req.headers.host, publicUrl))
      return next(new HttpError(403, `admin calls from another origin are refused (Origin ${origin})`));
    const referer = req.headers.referer;
    if (referer !== undefined && !isOwnOrigin(referer, req.headers.host, publicUrl))
      return next(new HttpError(403, 'admin calls from a page of another origin are refused (Referer)'));
    next();
  };
}

/** GET /__admin or /__admin/ as a browser's top-level navigation (the guard is mounted at /__admin). */
function isInspectorNavigation(req: Request): boolean {
  return (
    req.method === 'GET' &&
    req.path === '/' &&
    req.headers['sec-fetch-mode'] === 'navigate' &&
    (req.headers['sec-fetch-dest'] === undefined || req.headers['sec-fetch-dest'] === 'document')
  );
}

/** An Origin, or a Referer's origin, that is the request's own host or --public-url's origin. */
function isOwnOrigin(originOrUrl: string, host: string | undefined, publicUrl: string | undefined): boolean {
  let url: URL;
  try {
    url = new URL(originOrUrl);
  } catch {
    return false; // "null" (sandboxed frames, file: pages) or garbage
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (host !== undefined && url.host.toLowerCase() === host.toLowerCase()) return true;
  return publicUrl !== undefined && url.origin === new URL(publicUrl).origin;
}

/** Admin bodies are JSON and say so: a form or text/plain body (what a cross-site form can send) is 415. */
function jsonBodiesOnly(): RequestHandler {
  return (req, _res, next) => {
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (!hasBody) return next();
    const type = mediaTypeOf(req.headers['content-type']);
    if (type === 'application/json') return next();
    next(new HttpError(415, `admin bodies must be Content-Type: application/json (got "${type}")`));
  };
}

/**
 * Everything under /__admin passes here first (request-pipeline.ts runs it before any admin route): same
 * origin for every call, then JSON-only bodies. The Host check runs earlier, for the whole
 * server; the token, in the admin router. A page or route added under /__admin inherits all of it.
 */
export function adminGuard(
  options: AdminGuardOptions,
): readonly [sameOrigin: RequestHandler, jsonBodies: RequestHandler] {
  return [sameOriginCheck(options.publicUrl), jsonBodiesOnly()];
}
