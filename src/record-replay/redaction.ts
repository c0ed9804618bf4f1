import type { HeaderMap } from './format.js';

/** Never written to a recording, whatever the options say. */
export const ALWAYS_REDACTED = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-cloud-key'];

/** The built-in names plus the --redact ones, lower-cased and unique. */
export function redactedNames(extra: readonly string[] = []): string[] {
  return [...new Set([...ALWAYS_REDACTED, ...extra.map((n) => n.trim().toLowerCase()).filter(Boolean)])];
}

export function redactHeaders(headers: HeaderMap, names: readonly string[]): HeaderMap {
  const out: HeaderMap = {};
  for (const [name, value] of Object.entries(headers)) if (!names.includes(name.toLowerCase())) out[name.toLowerCase()] = value;
  return out;
}

export function redactQuery(query: Array<[string, string]>, names: readonly string[]): Array<[string, string]> {
  return query.filter(([name]) => !names.includes(name.toLowerCase()));
}

/**
 * Secrets the service writes into bodies: the account's S3 key (account-info s3/authkey) and any
 * element named like a redacted name. The element stays, its text becomes "[redacted]".
 */
export function redactXmlText(text: string, names: readonly string[]): string {
  const elements = ['authkey', 'password', ...names.filter((n) => /^[a-z_][\w.-]*$/i.test(n))];
  const pattern = new RegExp(`<(${elements.map(escapeRegExp).join('|')})>[^<]*</\\1>`, 'gi');
  return text.replace(pattern, (_m, el: string) => `<${el}>[redacted]</${el}>`);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
