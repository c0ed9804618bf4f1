import type { IncomingHttpHeaders } from 'node:http';
import { isSecretName } from './secret-names.js';

/** What a log, the journal or a request line shows for a secret; the names are the recordings' too (secret-names.ts). */
export const REMOVED = '[removed]';

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
export function redactJsonMembers(text: string, extra: readonly string[] = []): string {
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
    parts.push(text.slice(copied, valueAt), `"${REMOVED}"`);
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
export function redactNameValuePairs(text: string, extra: readonly string[] = []): string {
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
    return `${before}${name}=${quote}${REMOVED}${quote}`;
  });
}

/**
 * A text body as the journal and the log show it: secret XML elements, JSON members (nested too)
 * and form or query pairs blanked, by the one name rule (isSecretName) recordings use too.
 */
export function redactBodyText(text: string, extra: readonly string[] = []): string {
  return redactNameValuePairs(redactJsonMembers(redactXmlElements(text, extra), extra), extra);
}
