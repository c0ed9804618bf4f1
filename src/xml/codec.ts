import { decodeEntities, elementNameOf, parseOrderedXml, type OrderedNode } from './parser.js';

export { XmlSyntaxError, parseChecked } from './parser.js';

/** REST entities as plain objects: attributes as "@_name", repeated elements as arrays, text as strings. */
export const ATTR = '@_';
export const XLINK_NS = 'http://www.w3.org/1999/xlink';

export type XmlNode = { [key: string]: XmlValue };
export type XmlValue = string | number | boolean | XmlNode | XmlValue[] | undefined;

/**
 * Parses XML text into plain objects ("@_name" attributes). Text is kept exactly as sent (spaces
 * around a name are part of it); whitespace between child elements is layout and dropped. DOCTYPE and
 * entity declarations are refused; character references are decoded.
 */
export function parseXml(text: string): XmlNode {
  return childrenToObject(parseOrderedXml(text)) ?? {};
}

/** An element's content: a string when it holds text only, else an object of its children. */
function childrenToObject(children: OrderedNode[]): XmlNode | undefined {
  const out: XmlNode = {};
  let hasElements = false;
  for (const child of children) {
    const name = elementNameOf(child);
    if (name === undefined) continue;
    hasElements = true;
    const value = elementValue(child, name);
    const existing = out[name];
    if (existing === undefined) out[name] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else out[name] = [existing, value];
  }
  return hasElements ? out : undefined;
}

function elementValue(node: OrderedNode, name: string): XmlValue {
  const children = (node[name] ?? []) as OrderedNode[];
  const attrs = Object.entries((node[':@'] ?? {}) as Record<string, string>);
  const elements = childrenToObject(children);
  const text = elements ? undefined : textOfChildren(children);
  if (attrs.length === 0) return elements ?? text;
  const out: XmlNode = {};
  for (const [key, raw] of attrs) out[`${ATTR}${key}`] = decodeEntities(raw);
  if (elements) Object.assign(out, elements);
  else if (text !== '') out['#text'] = text;
  return out;
}

function textOfChildren(children: OrderedNode[]): string {
  let text = '';
  for (const child of children) {
    if ('#text' in child) text += decodeEntities(String(child['#text']));
    else if ('#cdata' in child)
      for (const part of child['#cdata'] as OrderedNode[]) text += String(part['#text'] ?? '');
  }
  return text;
}

/** Key of an already serialised element (a cached fragment), written out as it is. */
export const RAW = '#raw';

/** An element serialised once, to be placed in a tree as it is. */
export const rawXml = (xml: string): XmlNode => ({ [RAW]: xml });

/**
 * Serialises an element tree in the parser's shape ("@_" attributes, arrays as repeated elements,
 * empty elements self-closed) with no XML declaration, so the body starts with the root element.
 * Hand-written rather than fast-xml-parser's builder: listings are the hot path, and this is ~5x faster.
 * The pieces are joined once at the end: a string grown by `+=` stays a tree of its pieces in V8 (a
 * cons string), which every later join of a kept fragment into an answer would walk again.
 */
export function buildXml(root: XmlNode): string {
  const out: string[] = [];
  const element = (name: string, value: XmlValue): void => {
    if (value === undefined) return;
    if (Array.isArray(value)) {
      for (const item of value) element(name, item);
      return;
    }
    if (typeof value === 'object' && typeof value[RAW] === 'string') {
      out.push(value[RAW]);
      return;
    }
    if (typeof value !== 'object') {
      const text = String(value);
      out.push(text === '' ? `<${name}/>` : `<${name}>${escapeXml(text)}</${name}>`);
      return;
    }
    out.push(`<${name}`);
    let hasChildren = false;
    for (const [key, v] of Object.entries(value)) {
      if (key.startsWith(ATTR)) {
        if (v !== undefined) out.push(` ${key.slice(ATTR.length)}="${escapeXml(String(v))}"`);
      } else if (v !== undefined) hasChildren = true;
    }
    if (!hasChildren) {
      out.push('/>');
      return;
    }
    out.push('>');
    for (const [key, v] of Object.entries(value)) {
      if (key === '#text') out.push(escapeXml(String(v)));
      else if (!key.startsWith(ATTR)) element(key, v);
    }
    out.push(`</${name}>`);
  };
  for (const [name, value] of Object.entries(root)) element(name, value);
  return out.join('');
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
