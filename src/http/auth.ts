import type { Request, Response } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { HttpError, unauthorized } from './errors.js';

const REALM = 'csp-mock';

/** The login basicAuth accepted for this request. */
export function userOf(res: Response): string {
  return res.locals.user!;
}

/** Decodes "Authorization: Basic ..." into a login and password, or undefined. */
export function parseBasicAuth(header: string | undefined): { user: string; password: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Compares secrets in constant time (passwords, the admin token). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The one answer to a login that does not match: the same for an unknown user and a wrong password, so
 * the mock does not tell a stranger which users exist.
 */
export function loginRefused(): HttpError {
  return unauthorized(REALM, 'authentication failed: unknown login or wrong password');
}

/**
 * HTTP Basic against the logins `users` holds: sets res.locals.user, or returns the 401 to answer (a missing
 * login and a refused one differ; an unknown user and a wrong password do not).
 */
export function refusedLogin(req: Request, res: Response, users: ReadonlyMap<string, string>): HttpError | undefined {
  const creds = parseBasicAuth(req.headers.authorization);
  const expected = creds ? users.get(creds.user) : undefined;
  if (!creds || expected === undefined || !sameSecret(creds.password, expected))
    return creds ? loginRefused() : unauthorized(REALM, 'authentication required: send HTTP Basic credentials');
  res.locals.user = creds.user;
  return undefined;
}
