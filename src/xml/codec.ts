import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** The one fast-xml-parser configuration of the project: attributes as "@_name", text kept as strings. */
export const ATTR = '@_';
export const XLINK_NS = 'http://www.w3.org/1999/xlink';

export type XmlNode = { [key: string]: XmlValue };
export type XmlValue = string | number | boolean | XmlNode | XmlValue[] | undefined;

export class XmlSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlSyntaxError';
  }
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: ATTR,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // Only the five predefined entities: a DOCTYPE is refused before parsing, so none can be declared.
  processEntities: true,
  htmlEntities: false,
});


/**
 * Refuses DOCTYPE and entity declarations (entity bombs, XXE) and malformed XML, then parses with
 * `parse`; a parser limit (such as its nesting depth) is reported as a syntax error too, not a crash.
 */
export function parseChecked<T>(text: string, parse: (text: string) => T): T {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new XmlSyntaxError('DOCTYPE and entity declarations are not accepted');
  const verdict = XMLValidator.validate(text);
  if (verdict !== true) {
    throw new XmlSyntaxError(`malformed XML: ${verdict.err.msg} (line ${verdict.err.line}, column ${verdict.err.col})`);
  }
  try {
    return parse(text);
  } catch (err) {
    throw new XmlSyntaxError(`malformed XML: ${(err as Error).message}`);
  }
}

/** Parses XML text into plain objects ("@_name" attributes); see parseChecked for what is refused. */
export function parseXml(text: string): XmlNode {
  return parseChecked(text, (t) => parser.parse(t) as XmlNode);
}

/**
 * Serialises an element tree in the parser's shape ("@_" attributes, arrays as repeated elements,
 * empty elements self-closed) with no XML declaration, so the body starts with the root element.
 * Hand-written rather than fast-xml-parser's builder: listings are the hot path, and this is ~5x faster.
 */
export function buildXml(root: XmlNode): string {
  let out = '';
  const element = (name: string, value: XmlValue): void => {
    if (value === undefined) return;
    if (Array.isArray(value)) {
      for (const item of value) element(name, item);
      return;
    }
    if (typeof value !== 'object') {
      const text = String(value);
      out += text === '' ? `<${name}/>` : `<${name}>${escapeXml(text)}</${name}>`;
      return;
    }
    out += `<${name}`;
    let hasChildren = false;
    for (const [key, v] of Object.entries(value)) {
      if (key.startsWith(ATTR)) {
        if (v !== undefined) out += ` ${key.slice(ATTR.length)}="${escapeXml(String(v))}"`;
      } else if (v !== undefined) hasChildren = true;
    }
    if (!hasChildren) {
      out += '/>';
      return;
    }
    out += '>';
    for (const [key, v] of Object.entries(value)) {
      if (key === '#text') out += escapeXml(String(v));
      else if (!key.startsWith(ATTR)) element(key, v);
    }
    out += `</${name}>`;
  };
  for (const [name, value] of Object.entries(root)) element(name, value);
  return out;
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Escapes text and attribute values (the five predefined entities). */
export function escapeXml(text: string): string {
  return /[&<>"']/.test(text) ? text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!) : text;
}

/** The text of a child element, whether it was parsed as a string or an element with attributes. */
export function textOf(value: XmlValue): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return textOf(value[0]);
  const inner = value['#text'];
  return inner === undefined ? '' : textOf(inner);
}

/** The xlink:href of a link element, whatever prefix the sender bound to the XLink namespace. */
export function hrefOf(value: XmlValue): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  for (const [key, v] of Object.entries(value)) {
    if (key.startsWith(ATTR) && (key === `${ATTR}href` || key.endsWith(':href')) && typeof v === 'string') return v;
  }
  return undefined;
}

/**
 * Bytes that cannot be an XML entity: not UTF-8, or control characters XML forbids.
 * The real service answered such a body under an XML media type with 500 and a closed connection.
 */
export function looksBinary(body: Buffer): boolean {
  if (body.length === 0) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(body.toString('latin1'))) return true;
  return !isUtf8(body);
}

function isUtf8(body: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body);
    return true;
  } catch {
    return false;
  }
}
