import { redactXmlElements } from '../http/redaction.js';
import { SECRET_NAMES, isSecretName } from '../http/secret-names.js';
import type { HeaderMap } from './format.js';

/**
 * Never written to a recording, whatever the options say: the shared secret list (the journal
 * uses it too), and any name containing token, secret, password or api-key (isSecretName).
 */
export const ALWAYS_REDACTED = [...SECRET_NAMES];

/** The built-in names plus the --redact ones, lower-cased and unique. */
export function redactedNames(extra: readonly string[] = []): string[] {
  return [...new Set([...ALWAYS_REDACTED, ...extra.map((n) => n.trim().toLowerCase()).filter(Boolean)])];
}

export function redactHeaders(headers: HeaderMap, names: readonly string[]): HeaderMap {
  const out: HeaderMap = {};
  for (const [name, value] of Object.entries(headers)) if (!isSecretName(name, names)) out[name.toLowerCase()] = value;
  return out;
}

export function redactQuery(query: Array<[string, string]>, names: readonly string[]): Array<[string, string]> {
  return query.filter(([name]) => !isSecretName(name, names));
}

/**
 * Secrets the service writes into bodies: the account's S3 key (account-info s3/authkey) and any
 * element named like a secret or a redacted name (the one rule, isSecretName). The element stays,
 * its text becomes "[redacted]".
 */
export function redactXmlText(text: string, names: readonly string[]): string {
  return redactXmlElements(text, names, '[redacted]');
}
