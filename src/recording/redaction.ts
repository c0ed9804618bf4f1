import { URL_HEADERS, redactBody, redactUrl, redactXmlElements } from '../http/redaction.js';
import { SECRET_NAMES, isSecretName } from '../http/secret-names.js';
import { decodeInlineBody, encodeBody } from './body-encoding.js';
import type { HeaderMap, StoredBody } from './format.js';

/**
 * Never written to a recording, whatever the options say: the shared secret list (the journal
 * uses it too), and any name containing token, secret, password or api-key (isSecretName).
 */
export const ALWAYS_REDACTED = [...SECRET_NAMES];

/** The built-in names plus the --redact ones, lower-cased and unique. */
export function redactedNames(extra: readonly string[] = []): string[] {
  return [...new Set([...ALWAYS_REDACTED, ...extra.map((n) => n.trim().toLowerCase()).filter(Boolean)])];
}

/** What a recording writes in place of a secret value it keeps the place of. */
export const REDACTED = '[redacted]';

/** Secret headers go; a URL in Location, Content-Location or Referer keeps its place with secret values replaced. */
export function redactHeaders(headers: HeaderMap, names: readonly string[]): HeaderMap {
  const out: HeaderMap = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (isSecretName(lower, names)) continue;
    if (!URL_HEADERS.has(lower)) out[lower] = value;
    else
      out[lower] = Array.isArray(value)
        ? value.map((v) => redactUrl(v, names, REDACTED))
        : redactUrl(value, names, REDACTED);
  }
  return out;
}

/** A stored body with secret JSON members, form pairs, multipart text fields and XML elements replaced (sidecars as they are). */
export function redactStoredBody(
  body: StoredBody | undefined,
  contentType: string | undefined,
  names: readonly string[],
): StoredBody | undefined {
  if (!body || 'file' in body) return body;
  const bytes = decodeInlineBody(body);
  const redacted = redactBody(bytes, contentType, names, REDACTED);
  return redacted === bytes ? body : encodeBody(redacted);
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
  return redactXmlElements(text, names, REDACTED);
}
