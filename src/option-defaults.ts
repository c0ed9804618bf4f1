/**
 * The options' defaults and the --user reader: what the CLI needs to describe and read its options, without
 * loading what resolving them loads (the clock, generated accounts, CORS).
 */

export const DEFAULT_USERS: Readonly<Record<string, string>> = { demo: 'demo' };
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8080;

/** "--user NAME:PASSWORD" into a users map; the password may contain colons. */
export function parseUserSpec(specs: string[]): Record<string, string> {
  // No prototype: "__proto__" and "constructor" are logins like any other.
  const users = Object.create(null) as Record<string, string>;
  for (const spec of specs) {
    const colon = spec.indexOf(':');
    if (colon <= 0) throw new Error(`--user must be NAME:PASSWORD, got "${spec}"`);
    users[spec.slice(0, colon)] = spec.slice(colon + 1);
  }
  return users;
}

/**
 * Time limits, in milliseconds (0: none). No request may hold the server: a client that stops
 * sending or reading loses its own connection after `idleMs` without a byte either way, while a slow
 * upload that keeps moving is never cut (hence no limit on the whole request by default).
 */
export interface ServerTimeouts {
  /** To receive a request's headers (Node's headersTimeout). Default 30 s. */
  headersMs?: number;
  /** To receive a whole request, body included (Node's requestTimeout). Default 0: uploads may take as long as they keep moving. */
  requestMs?: number;
  /** A socket with no traffic either way for this long is closed (a stalled upload or an unread download). Default 120 s. */
  idleMs?: number;
  /** An idle keep-alive connection is closed after this long (Node's keepAliveTimeout). Default 5 s. */
  keepAliveMs?: number;
}

export const DEFAULT_TIMEOUTS: Required<ServerTimeouts> = {
  headersMs: 30_000,
  requestMs: 0,
  idleMs: 120_000,
  keepAliveMs: 5_000,
};
