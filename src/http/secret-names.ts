/**
 * The one rule for what is a secret: header, query, form, JSON and XML names whose values the
 * request journal, the request log and recordings never show or write. One list and one matcher
 * (isSecretName), compared in lower case with `_` and `-` alike.
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
  'pwd',
  'sig',
];

/**
 * Any name containing one of these is a secret too (access_token, refreshToken, X-Client-Secret,
 * apiKey, api-key, passwd, passphrase, signature, credentials), or ending in "key" (authkey,
 * access_key, X-Cloud-Key).
 */
const SECRET_PART = /token|secret|passw|passphrase|api-?_?key|key$|signature|credential/;

/** True for a built-in secret name, a name containing a secret word, or one of `extra` (--redact). */
export function isSecretName(name: string, extra: readonly string[] = []): boolean {
  const lower = name.trim().toLowerCase();
  if (SECRET_NAMES.includes(lower) || SECRET_PART.test(lower)) return true;
  const spelled = lower.replace(/_/g, '-');
  return SECRET_NAMES.includes(spelled) || extra.some((e) => e.trim().toLowerCase().replace(/_/g, '-') === spelled);
}
