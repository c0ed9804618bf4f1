import type { RequestHandler } from 'express';
import type { RequestListener } from 'node:http';
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

/**
 * Emulated misses take a recorded login with any password, as replay does without --user: its credentials are
 * handed to the emulator with the throw-away password the emulator knows that login by.
 */
export function recordedLoginsAccepted(
  emulator: RequestListener,
  logins: ReadonlyMap<string, string> | undefined,
): RequestListener {
  if (!logins?.size) return emulator;
  return (req, res) => {
    const creds = parseBasicAuth(req.headers.authorization);
    const password = creds && logins.get(creds.user);
    if (creds && password !== undefined)
      req.headers.authorization = `Basic ${Buffer.from(`${creds.user}:${password}`).toString('base64')}`;
    emulator(req, res);
  };
}
