/**
 * The one list of secret header and query names, shared by the request journal and recordings:
 * their values are never shown or written. Names are compared in lower case.
 */
export const SECRET_NAMES: readonly string[] = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-cloud-key',
  'x-auth-token',
  'x-api-key',
  'x-admin-token',
  'auth',
  'pass',
  'sig',
];

/**
 * Any name containing one of these is a secret too (access_token, X-Client-Secret, api-key, passwd,
 * signature), or ending in "key" (authkey, access_key, X-Cloud-Key).
 */
const SECRET_PART = /token|secret|passw|api-?_?key|key$|signature|credential/i;

/** True for a built-in secret name, a name containing a secret word, or one of `extra` (--redact). */
export function isSecretName(name: string, extra: readonly string[] = []): boolean {
  const lower = name.trim().toLowerCase();
  return SECRET_NAMES.includes(lower) || SECRET_PART.test(lower) || extra.some((e) => e.trim().toLowerCase() === lower);
}
