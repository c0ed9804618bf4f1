import type { RequestHandler } from 'express';
import { parseBasicAuth, REALM, sameSecret } from '../http/auth.js';
import { unauthorized } from '../http/errors.js';
import type { Recording } from '../recording/format.js';

/**
 * With `users` (replay --user), replay answers an unknown login or a wrong password with 401, so a
 * client's handling of refused credentials can be exercised against a recording too. Without them any
 * login replays (parallel clients may use different logins to keep their own order). Requests
 * without credentials go on to the recording, which may hold the service's own 401.
 */
export function replayCredentials(recording: Recording, users: Record<string, string> | undefined): RequestHandler {
  const seen = [...new Set(recording.exchanges.map((e) => e.user).filter((u): u is string => !!u))];
  return (req, _res, next) => {
    const creds = parseBasicAuth(req.headers.authorization);
    if (!creds || !users) return next();
    if (!(creds.user in users)) {
      const recorded = seen.length ? `; the recording saw ${seen.join(', ')}` : '';
      return next(
        unauthorized(
          REALM,
          `authentication failed: unknown user "${creds.user}" (--user gives ${Object.keys(users).join(', ')}${recorded})`,
        ),
      );
    }
    if (!sameSecret(creds.password, users[creds.user]!)) {
      return next(unauthorized(REALM, `authentication failed: wrong password for user "${creds.user}"`));
    }
    next();
  };
}
