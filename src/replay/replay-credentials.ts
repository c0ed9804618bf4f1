import type { RequestHandler } from 'express';
import { loginRefused, parseBasicAuth, sameSecret } from '../http/auth.js';

/**
 * With `users` (replay --user), replay answers an unknown login or a wrong password with 401, so a
 * client's handling of refused credentials can be exercised against a recording too. Without them any
 * login replays (parallel clients may use different logins to keep their own order). Requests
 * without credentials go on to the recording, which may hold the service's own 401.
 */
export function replayCredentials(users: Record<string, string> | undefined): RequestHandler {
  return (req, _res, next) => {
    const creds = parseBasicAuth(req.headers.authorization);
    if (!creds || !users) return next();
    const expected = Object.hasOwn(users, creds.user) ? users[creds.user] : undefined;
    if (expected === undefined || !sameSecret(creds.password, expected)) return next(loginRefused());
    next();
  };
}
