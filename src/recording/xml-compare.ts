import { decodeEntities, parseOrderedXml } from '../xml/parser.js';

/** Elements whose text is a Unix time: compared as "a number", never by value. */
const TIMESTAMPS = ['created', 'modified', 'accessed', 'recycleddate'];

type Ordered = Array<Record<string, unknown>>;

/** The project's one (order-preserving) parser; undefined when the text is not XML we read. */
export function parseOrdered(text: string): Ordered | undefined {
  if (!text.trimStart().startsWith('<')) return undefined;
  try {
    return parseOrderedXml(text);
  } catch {
    return undefined;
  }
}

/** Text as a reader sees it: references decoded, layout whitespace around it ignored. */
function textOf(nodes: Ordered): string {
  const raw = nodes
    .filter((n) => nameOf(n) === '#text')
    .map((n) => String(n['#text']))
    .join('');
  try {
    return decodeEntities(raw).trim();
  } catch {
    return raw.trim();
  }
}

/**
 * Differences between two XML documents, element by element in order: names, attributes, text.
 * Timestamp elements only need to hold integers on both sides. At most `limit` lines.
 */
export function compareXml(expected: Ordered, actual: Ordered, limit = 10): string[] {
  const out: string[] = [];
  walk(expected, actual, '', out, limit);
  return out;
}

function nameOf(node: Record<string, unknown>): string {
  return Object.keys(node).find((k) => k !== ':@') ?? '';
}

/** A WebDAV prop element (any prefix): its properties are a set, their order carries no meaning (RFC 4918 14.18). */
const isDavProp = (leaf: string): boolean => leaf === 'prop' || leaf.endsWith(':prop');

const byName = (x: Record<string, unknown>, y: Record<string, unknown>): number =>
  nameOf(x) < nameOf(y) ? -1 : nameOf(x) > nameOf(y) ? 1 : 0;

function walk(a: Ordered, b: Ordered, path: string, out: string[], limit: number): void {
  const leaf =
    path
      .split('/')
      .pop()
      ?.replace(/\[\d+\]$/, '') ?? '';
  const unordered = isDavProp(leaf);
  const ea = a.filter((n) => !nameOf(n).startsWith('#'));
  const eb = b.filter((n) => !nameOf(n).startsWith('#'));
  if (unordered) {
    ea.sort(byName);
    eb.sort(byName);
  }
  const ta = textOf(a);
  const tb = textOf(b);
  if (TIMESTAMPS.includes(leaf)) {
    if (!/^\d+$/.test(ta) || !/^\d+$/.test(tb))
      push(out, limit, `${path}: expected a timestamp, got "${tb}" (recorded "${ta}")`);
  } else if (ta !== tb) push(out, limit, `${path || '/'} text: expected "${ta}", got "${tb}"`);
  const count = new Map<string, number>();
  for (let i = 0; i < Math.max(ea.length, eb.length); i++) {
    const x = ea[i];
    const y = eb[i];
    if (!x || !y || nameOf(x) !== nameOf(y)) {
      push(
        out,
        limit,
        `${path}/ element ${i + 1}: expected <${x ? nameOf(x) : 'nothing'}>, got <${y ? nameOf(y) : 'nothing'}>`,
      );
      if (!x || !y) continue;
      continue;
    }
    const name = nameOf(x);
    const n = (count.get(name) ?? 0) + 1;
    count.set(name, n);
    const here = `${path}/${name}${n > 1 ? `[${n}]` : ''}`;
    const attrsA = (x[':@'] ?? {}) as Record<string, string>;
    const attrsB = (y[':@'] ?? {}) as Record<string, string>;
    for (const attr of new Set([...Object.keys(attrsA), ...Object.keys(attrsB)])) {
      if (attrsA[attr] !== attrsB[attr]) {
        push(out, limit, `${here}/@${attr}: expected ${show(attrsA[attr])}, got ${show(attrsB[attr])}`);
      }
    }
    walk(x[name] as Ordered, y[name] as Ordered, here, out, limit);
  }
}

const show = (v: string | undefined): string => (v === undefined ? 'nothing' : `"${v}"`);

function push(out: string[], limit: number, line: string): void {
  if (out.length < limit) out.push(line);
}
