import type { RequestHandler } from 'express';
import { parseBasicAuth, REALM, sameSecret } from '../http/auth.js';
import { unauthorized } from '../http/errors.js';
import type { Recording } from './format.js';

/**
 * Replay answers a login the recording never saw (or, with `users`, a wrong password) with 401, so
 * a client's handling of refused credentials can be exercised against a recording too. Requests
 * without credentials go on to the recording, which may hold the service's own 401.
 */
export function replayCredentials(recording: Recording, users: Record<string, string> | undefined): RequestHandler {
  const seen = new Set(recording.exchanges.map((e) => e.user).filter((u): u is string => !!u));
  const known = users ? new Set(Object.keys(users)) : seen;
  return (req, _res, next) => {
    const creds = parseBasicAuth(req.headers.authorization);
    if (!creds || known.size === 0) return next();
    if (!known.has(creds.user)) {
      const from = users ? 'the --user logins' : 'the logins the recording saw';
      return next(unauthorized(REALM, `authentication failed: unknown user "${creds.user}" (${from}: ${[...known].join(', ')})`));
    }
    if (users && !sameSecret(creds.password, users[creds.user]!)) {
      return next(unauthorized(REALM, `authentication failed: wrong password for user "${creds.user}"`));
    }
    next();
  };
}
