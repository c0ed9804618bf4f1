import type { IncomingHttpHeaders } from 'node:http';

/** The one list of what never reaches a log, the journal or a recording. */
export const REMOVED = '[removed]';
export const SECRET_HEADERS: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-cloud-key', 'x-admin-token']);
export const SECRET_QUERY = /pass|secret|token|key|auth|sig/i;
/** XML elements and JSON fields whose text is a secret (the account's S3 key, passwords, tokens). */
const SECRET_FIELDS = ['authkey', 'password', 'secret', 'token', 'adminToken', 'admin-token'];

export function redactHeaderMap(headers: IncomingHttpHeaders | Record<string, string | string[] | number | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    out[lower] = SECRET_HEADERS.has(lower) ? REMOVED : Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

export function redactQueryOf(url: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const params = new URL(url, 'http://x').searchParams;
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name).map((v) => (SECRET_QUERY.test(name) ? REMOVED : v));
    out[name] = values.length === 1 ? values[0]! : values;
  }
  return out;
}

/** A text body with secret XML elements and JSON fields blanked: `<authkey>[removed]</authkey>`, `"password": "[removed]"`. */
export function redactBodyText(text: string): string {
  const names = SECRET_FIELDS.join('|');
  return text
    .replace(new RegExp(`<((?:[\\w.-]+:)?(?:${names}))>[^<]*</\\1>`, 'gi'), (_m, el: string) => `<${el}>${REMOVED}</${el}>`)
    .replace(new RegExp(`("(?:${names})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi'), `$1"${REMOVED}"`);
}
