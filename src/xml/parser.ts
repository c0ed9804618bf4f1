import { XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * The one fast-xml-parser configuration of the project. Ordered, so element order and mixed content
 * survive; text kept exactly (no trimming, no number parsing); entities decoded here, not by the
 * parser: the five predefined ones and character references only, as XML defines them.
 */
const orderedParser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  commentPropName: '#comment',
  cdataPropName: '#cdata',
});

/** One node of the ordered tree: `{ name: children, ':@': attributes }`, `{ '#text': raw }`, `{ '#cdata': [...] }`. */
export type OrderedNode = Record<string, unknown>;

export class XmlSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlSyntaxError';
  }
}

/**
 * Refuses DOCTYPE and entity declarations (entity bombs, XXE) and malformed XML, then parses with
 * `parse`; a parser limit (such as its nesting depth) is reported as a syntax error too, not a crash.
 */
export function parseChecked<T>(text: string, parse: (text: string) => T): T {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new XmlSyntaxError('DOCTYPE and entity declarations are not accepted');
  refuseIllegalCharacters(text);
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

/** Any character outside XML 1.0's Char production (controls, U+FFFE, U+FFFF, an unpaired surrogate). */
const ILLEGAL_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/**
 * A raw character XML cannot carry is not well-formed (XML 1.0, section 2.2); the parser would pass it on, and
 * a value holding it (a dead property, a lock owner) would make every later answer that echoes it malformed.
 */
function refuseIllegalCharacters(text: string): void {
  const found = ILLEGAL_CHARACTER.exec(text);
  if (!found) return;
  const before = text.slice(0, found.index);
  const line = before.split('\n').length;
  const column = found.index - before.lastIndexOf('\n');
  const code = found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
  throw new XmlSyntaxError(
    `malformed XML: the character U+${code} (line ${line}, column ${column}) cannot appear in XML 1.0`,
  );
}

/** Parses checked XML into the ordered tree; text and attribute values are still undecoded. */
export function parseOrderedXml(text: string): OrderedNode[] {
  return parseChecked(text, (t) => orderedParser.parse(t) as OrderedNode[]);
}

/** The element name of an ordered node, or undefined for text, CDATA and comments. */
export function elementNameOf(node: OrderedNode): string | undefined {
  return Object.keys(node).find((k) => k !== ':@' && !k.startsWith('#'));
}

const ENTITY = /&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos|[^;\s]*);?/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes the five predefined entities and decimal / hexadecimal character references (&#233; &#x1F600;). */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (whole, ref: string) => {
    if (!whole.endsWith(';')) throw new XmlSyntaxError(`bare "&" in XML text`);
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      if (!isXmlChar(code)) throw new XmlSyntaxError(`bad character reference &${ref};`);
      return String.fromCodePoint(code);
    }
    const named = NAMED[ref];
    if (named === undefined) throw new XmlSyntaxError(`unknown entity &${ref};`);
    return named;
  });
}

/** XML 1.0 Char: a reference to anything else (&#0;, a surrogate, &#xFFFE;) is not well-formed. */
function isXmlChar(code: number): boolean {
  if (!Number.isFinite(code)) return false;
  if (code === 0x9 || code === 0xa || code === 0xd) return true;
  return (
    (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff)
  );
}
