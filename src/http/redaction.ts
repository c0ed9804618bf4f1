import type { IncomingHttpHeaders } from 'node:http';
import { mediaTypeOf } from './media-type.js';
import type { HeaderMap } from './plain-exchange.js';
import { SECRET_NAMES, isSecretName } from './secret-names.js';

// The one redaction of the mock: what the journal, the request log, recordings and HAR imports keep of a
// header, a query, a URL or a body. Every rule here asks isSecretName (secret-names.ts), with the
// --redact names as `extra`; only the marker differs (the journal and the log `[removed]`, a recording
// `[redacted]`).

/** What a log, the journal or a request line shows for a secret. */
export const REMOVED = '[removed]';
/** What a recording writes in place of a secret value it keeps the place of. */
export const REDACTED = '[redacted]';

/** The built-in secret names plus the --redact ones, lower-cased and unique: what a recording never writes. */
export function redactedNames(extra: readonly string[] = []): string[] {
  return [...new Set([...SECRET_NAMES, ...extra.map((n) => n.trim().toLowerCase()).filter(Boolean)])];
}

export function redactHeaderMap(
  headers: IncomingHttpHeaders | Record<string, string | string[] | number | undefined>,
  extra: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    out[lower] = isSecretName(lower, extra) ? REMOVED : URL_HEADERS.has(lower) ? redactUrl(text, extra) : text;
  }
  return out;
}

/** A recording's headers: secret ones go; a URL in Location, Content-Location or Referer keeps its place with secret values replaced. */
export function dropSecretHeaders(headers: HeaderMap, names: readonly string[]): HeaderMap {
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

/** A recording's query: secret-named pairs go. */
export function dropSecretPairs(query: Array<[string, string]>, names: readonly string[]): Array<[string, string]> {
  return query.filter(([name]) => !isSecretName(name, names));
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

/** An XML element with text only: `<authkey>...</authkey>`, `<ns:password>...</ns:password>`. */
const XML_ELEMENT = /<((?:[\w.-]+:)?([\w.-]+))(\s[^<>]*)?>[^<]*<\/\1\s*>/g;

/** XML elements named like a secret keep their name; their text becomes `marker`. */
export function redactXmlElements(text: string, extra: readonly string[] = [], marker = REMOVED): string {
  return text.replace(XML_ELEMENT, (whole, name: string, local: string, attributes: string | undefined) =>
    isSecretName(local, extra) ? `<${name}${attributes ?? ''}>${marker}</${name}>` : whole,
  );
}

/** A JSON member name followed by its colon. */
const JSON_MEMBER = /"((?:[^"\\]|\\.){1,256})"\s*:\s*/g;
/** A JSON scalar value (string, number, literal), at the start of the rest. */
const JSON_SCALAR = /^(?:"(?:[^"\\]|\\.)*"?|-?[\d.eE+-]+|true|false|null)/;

function memberName(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/** Where the JSON object or array starting at `from` ends (its text may be cut short: then the end). */
function endOfComposite(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return text.length;
}

/**
 * JSON members named like a secret, at any depth: the value (a string, a number, or a whole object
 * or array) becomes `"[removed]"`. A scan, not a parse, so a body cut short is redacted too.
 */
export function redactJsonMembers(text: string, extra: readonly string[] = [], marker = REMOVED): string {
  if (!text.includes('"')) return text;
  const parts: string[] = [];
  let copied = 0;
  JSON_MEMBER.lastIndex = 0;
  for (let m = JSON_MEMBER.exec(text); m; m = JSON_MEMBER.exec(text)) {
    if (!isSecretName(memberName(m[1]!), extra)) continue;
    const valueAt = m.index + m[0].length;
    const first = text[valueAt];
    const end =
      first === '{' || first === '['
        ? endOfComposite(text, valueAt)
        : valueAt + (JSON_SCALAR.exec(text.slice(valueAt, valueAt + 64 * 1024))?.[0].length ?? 0);
    if (end === valueAt) continue;
    parts.push(text.slice(copied, valueAt), `"${marker}"`);
    copied = end;
    JSON_MEMBER.lastIndex = end;
  }
  if (copied === 0) return text;
  parts.push(text.slice(copied));
  return parts.join('');
}

/** `name=value` at the start, after `&`, `?` or white space: form bodies, query strings, XML attributes. */
const NAME_VALUE = /(^|[&?\s])([^=&?\s"'<>]{1,256})=("[^"]*"|'[^']*'|[^&\s"'<>]*)/g;

/** Form-encoded pairs (and query strings or attributes inside a body) named like a secret: the value goes. */
export function redactNameValuePairs(text: string, extra: readonly string[] = [], marker = REMOVED): string {
  if (!text.includes('=')) return text;
  return text.replace(NAME_VALUE, (whole, before: string, name: string, value: string) => {
    let decoded = name;
    try {
      decoded = decodeURIComponent(name.replace(/\+/g, ' '));
    } catch {
      // not percent-encoding: the name as written
    }
    if (!isSecretName(decoded, extra)) return whole;
    const quote = value.startsWith('"') || value.startsWith("'") ? value[0]! : '';
    return `${before}${name}=${quote}${marker}${quote}`;
  });
}

/**
 * A text body as the journal and the log show it: secret XML elements, JSON members (nested too),
 * form or query pairs and multipart text fields blanked, by the one name rule (isSecretName) recordings use too.
 */
export function redactBodyText(text: string, extra: readonly string[] = []): string {
  const pairs = redactNameValuePairs(redactJsonMembers(redactXmlElements(text, extra), extra), extra);
  return redactMultipartText(pairs, undefined, extra);
}

/** Headers whose value is a URL that may carry a token in its query or fragment. */
export const URL_HEADERS = new Set(['location', 'content-location', 'referer']);

/**
 * A URL (absolute or relative) with the values of secret-named query parameters and fragment pairs
 * (`#access_token=...`, as an OAuth implicit grant sends it) replaced by `marker`.
 */
export function redactUrl(url: string, extra: readonly string[] = [], marker = REMOVED): string {
  if (!url.includes('=')) return url;
  const hash = url.indexOf('#');
  const beforeHash = hash < 0 ? url : url.slice(0, hash);
  const fragment = hash < 0 ? undefined : url.slice(hash + 1);
  const q = beforeHash.indexOf('?');
  const head =
    q < 0 ? beforeHash : `${beforeHash.slice(0, q)}${redactNameValuePairs(beforeHash.slice(q), extra, marker)}`;
  return fragment === undefined ? head : `${head}#${redactNameValuePairs(fragment, extra, marker)}`;
}

/** A multipart part without a filename (a text field): its headers, and where its value starts and ends. */
const FIELD_PART = /content-disposition:[^\r\n]*\bname="([^"]*)"[^\r\n]*\r\n(?:[^\r\n]+\r\n)*\r\n/gi;

/**
 * Where the value of the first multipart text field named like a secret starts, at or after `from` (its
 * headers whole before it), or -1. A part with a filename is a file and is never a secret field.
 */
export function secretFieldValueAt(text: string, extra: readonly string[] = [], from = 0): number {
  FIELD_PART.lastIndex = from;
  for (let m = FIELD_PART.exec(text); m; m = FIELD_PART.exec(text)) {
    if (!/\bfilename\*?=/i.test(m[0]) && isSecretName(m[1]!, extra)) return m.index + m[0].length;
  }
  return -1;
}

/**
 * multipart/form-data text fields named like a secret: their value becomes `marker` (file parts stay).
 * Without the boundary, a value ends at the next line that starts with "--".
 */
export function redactMultipartText(
  text: string,
  boundary: string | undefined,
  extra: readonly string[] = [],
  marker = REMOVED,
): string {
  if (!text.includes('name="')) return text;
  // The boundary may have been replaced (a recording's fixed one) under a Content-Type that still names
  // the client's: a value ends at its boundary if found, else at the next line starting with "--".
  const own = boundary === undefined ? undefined : `\r\n--${boundary}`;
  const parts: string[] = [];
  let copied = 0;
  for (let valueAt = secretFieldValueAt(text, extra); valueAt >= 0; ) {
    const atOwn = own === undefined ? -1 : text.indexOf(own, valueAt);
    const found = atOwn >= 0 ? atOwn : text.indexOf('\r\n--', valueAt);
    // A body cut short (the journal keeps its first bytes): the value runs to the end.
    const end = found < 0 ? text.length : found;
    parts.push(text.slice(copied, valueAt), marker);
    copied = end;
    valueAt = secretFieldValueAt(text, extra, end);
  }
  if (copied === 0) return text;
  parts.push(text.slice(copied));
  return parts.join('');
}

/**
 * A request or answer body as every place that keeps one (journal, log, recording, HAR import) keeps
 * it: by its media type, JSON members, form pairs, multipart text fields and XML elements named like a
 * secret get `marker` for their value. The same Buffer back when nothing was secret.
 */
export function redactBody(
  body: Buffer,
  contentType: string | undefined,
  extra: readonly string[] = [],
  marker = REMOVED,
): Buffer {
  if (body.length === 0) return body;
  const type = mediaTypeOf(contentType);
  const boundary = type === 'multipart/form-data' ? /boundary="?([^";]+)"?/i.exec(contentType ?? '')?.[1] : undefined;
  // latin1 maps each byte to one character and back: binary file parts pass through unchanged.
  if (boundary) {
    const text = body.toString('latin1');
    const out = redactMultipartText(text, boundary, extra, marker);
    return out === text ? body : Buffer.from(out, 'latin1');
  }
  let text: string;
  if (type === 'application/json' || type.endsWith('+json'))
    text = redactJsonMembers(body.toString('utf8'), extra, marker);
  else if (type === 'application/x-www-form-urlencoded')
    text = redactNameValuePairs(body.toString('utf8'), extra, marker);
  else if (type.endsWith('+xml') || type === 'application/xml' || type === 'text/xml')
    text = redactXmlElements(body.toString('utf8'), extra, marker);
  else return body;
  const out = Buffer.from(text, 'utf8');
  return out.equals(body) ? body : out;
}
