import { escapeXml } from './codec.js';
import {
  XmlSyntaxError,
  decodeEntities,
  elementNameOf as elementName,
  parseOrderedXml,
  type OrderedNode as Ordered,
} from './parser.js';

/**
 * Namespace-aware XML for WebDAV bodies: prefixes vary between clients ("D:", "d:", a default
 * namespace), so elements are matched by (namespace URI, local name), never by prefix.
 * Built on the project's one fast-xml-parser configuration (parser.ts), with namespaces resolved here.
 */
export interface XmlElement {
  ns: string;
  local: string;
  attrs: XmlAttribute[];
  children: XmlChild[];
}
export interface XmlAttribute {
  ns: string;
  local: string;
  value: string;
}
export type XmlChild = XmlElement | string;

export const DAV_NS = 'DAV:';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/** Parses a body into an element tree with resolved namespaces; refuses DOCTYPE and bad namespaces. */
export function parseNamespacedXml(text: string): XmlElement {
  const top = parseOrderedXml(text).filter((n) => elementName(n) !== undefined);
  if (top.length !== 1) throw new XmlSyntaxError('an XML document needs exactly one root element');
  return toElement(top[0]!, new Map([['xml', XML_NS]]));
}

function toElement(node: Ordered, inScope: Map<string, string>): XmlElement {
  const qname = elementName(node)!;
  const rawAttrs = (node[':@'] ?? {}) as Record<string, string>;
  const scope = new Map(inScope);
  const plain: Array<[string, string]> = [];
  for (const [name, raw] of Object.entries(rawAttrs)) {
    const value = decodeEntities(raw);
    if (name === 'xmlns') scope.set('', value);
    else if (name.startsWith('xmlns:')) {
      // Namespaces in XML 1.0: a prefix cannot be undeclared (xmlns:p="") in XML 1.0.
      if (value === '') throw new XmlSyntaxError(`empty namespace for prefix "${name.slice(6)}"`);
      scope.set(name.slice(6), value);
    } else plain.push([name, value]);
  }
  const [ns, local] = resolve(qname, scope, true);
  const attrs = plain.map(([name, value]) => {
    const [ans, alocal] = resolve(name, scope, false);
    return { ns: ans, local: alocal, value };
  });
  const children: XmlChild[] = [];
  for (const child of (node[qname] ?? []) as Ordered[]) {
    if ('#text' in child) children.push(decodeEntities(String(child['#text'])));
    else if ('#cdata' in child) {
      for (const part of child['#cdata'] as Ordered[]) children.push(String(part['#text'] ?? ''));
    } else if (elementName(child) !== undefined) children.push(toElement(child, scope));
  }
  return { ns, local, attrs, children };
}

function resolve(qname: string, scope: Map<string, string>, isElement: boolean): [string, string] {
  const colon = qname.indexOf(':');
  if (colon < 0) return [isElement ? (scope.get('') ?? '') : '', qname];
  const prefix = qname.slice(0, colon);
  const ns = scope.get(prefix);
  if (ns === undefined) throw new XmlSyntaxError(`undeclared namespace prefix "${prefix}"`);
  return [ns, qname.slice(colon + 1)];
}

/** The element children, skipping text (whitespace between elements). */
export function elementsOf(el: XmlElement): XmlElement[] {
  return el.children.filter((c): c is XmlElement => typeof c !== 'string');
}

export function isDav(el: XmlElement, local: string): boolean {
  return el.ns === DAV_NS && el.local === local;
}

export function textContent(el: XmlElement): string {
  return el.children.map((c) => (typeof c === 'string' ? c : textContent(c))).join('');
}

/** Clark notation "{namespace}local", the key dead properties are stored under. */
export function clarkName(ns: string, local: string): string {
  return `{${ns}}${local}`;
}

export function parseClark(name: string): { ns: string; local: string } {
  const close = name.indexOf('}');
  return { ns: name.slice(1, close), local: name.slice(close + 1) };
}

/**
 * Serialises an element so it stands alone anywhere: every element whose namespace differs from its
 * parent's declares it as the default namespace (xmlns="" for none), attributes get their own prefixes.
 */
export function serializeElement(el: XmlElement, parentNs: string | null = null): string {
  let out = `<${el.local}`;
  if (el.ns !== parentNs) out += ` xmlns="${escapeXml(el.ns)}"`;
  el.attrs.forEach((a, i) => {
    if (a.ns === '') out += ` ${a.local}="${escapeXml(a.value)}"`;
    else if (a.ns === XML_NS) out += ` xml:${a.local}="${escapeXml(a.value)}"`;
    else out += ` xmlns:a${i}="${escapeXml(a.ns)}" a${i}:${a.local}="${escapeXml(a.value)}"`;
  });
  if (el.children.length === 0) return `${out}/>`;
  return `${out}>${serializeChildren(el, el.ns)}</${el.local}>`;
}

/** The children of an element, serialised as in serializeElement. */
export function serializeChildren(el: XmlElement, ns: string | null = null): string {
  return el.children.map((c) => (typeof c === 'string' ? escapeXml(c) : serializeElement(c, ns))).join('');
}
