import type { RequestHandler } from 'express';
import { sameSecret } from '../http/auth.js';
import { HttpError } from '../http/errors.js';
import { mediaTypeOf } from '../http/media-type.js';

export interface AdminGuardOptions {
  publicUrl?: string;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

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
 * A state-changing call must come from our own origin: a browser names the page that sent it in
 * Origin (and Sec-Fetch-Site), so a form on another site cannot reset or switch the mock. Tools
 * (curl, a test suite) send neither and pass.
 */
function sameOriginCheck(publicUrl: string | undefined): RequestHandler {
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    if (req.headers['sec-fetch-site'] === 'cross-site')
      return next(new HttpError(403, 'cross-site admin calls are refused (Sec-Fetch-Site: cross-site)'));
    const origin = req.headers.origin;
    if (origin === undefined) return next();
    if (!isOwnOrigin(origin, req.headers.host, publicUrl))
      return next(new HttpError(403, `admin calls from another origin are refused (Origin ${origin})`));
    next();
  };
}

function isOwnOrigin(origin: string, host: string | undefined, publicUrl: string | undefined): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (sandboxed frames, file: pages) or garbage
  }
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
 * Everything under /__admin passes here first (app.ts mounts it before any admin route): same
 * origin for state changes, then JSON-only bodies. The Host check runs earlier, for the whole
 * server; the token, in the admin router. A page or route added under /__admin inherits all of it.
 */
export function adminGuard(options: AdminGuardOptions): RequestHandler[] {
  return [sameOriginCheck(options.publicUrl), jsonBodiesOnly()];
}
