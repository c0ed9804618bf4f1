import type { IncomingHttpHeaders } from 'node:http';
import { isSecretName } from './secret-names.js';

/** What a log, the journal or a request line shows for a secret; the names are the recordings' too (secret-names.ts). */
export const REMOVED = '[removed]';
/** XML elements and JSON fields whose text is a secret (the account's S3 key, passwords, tokens). */
const SECRET_FIELDS = ['authkey', 'password', 'secret', 'token', 'adminToken', 'admin-token'];

export function redactHeaderMap(
  headers: IncomingHttpHeaders | Record<string, string | string[] | number | undefined>,
  extra: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    out[lower] = isSecretName(lower, extra) ? REMOVED : Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

export function redactQueryOf(url: string, extra: readonly string[] = []): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const params = new URL(url, 'http://x').searchParams;
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name).map((v) => (isSecretName(name, extra) ? REMOVED : v));
    out[name] = values.length === 1 ? values[0]! : values;
  }
  return out;
}

/** A text body with secret XML elements and JSON fields blanked: `<authkey>[removed]</authkey>`, `"password": "[removed]"`. */
export function redactBodyText(text: string): string {
  const names = SECRET_FIELDS.join('|');
  return text
    .replace(
      new RegExp(`<((?:[\\w.-]+:)?(?:${names}))>[^<]*</\\1>`, 'gi'),
      (_m, el: string) => `<${el}>${REMOVED}</${el}>`,
    )
    .replace(new RegExp(`("(?:${names})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi'), `$1"${REMOVED}"`);
}
