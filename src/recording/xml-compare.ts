import { decodeEntities, parseOrderedXml } from '../xml/parser.js';

/** Elements whose text is a Unix time: compared as "a number", never by value. */
const TIMESTAMPS = ['created', 'modified', 'accessed', 'recycleddate'];

/**
 * WebDAV properties whose value is a time or a version a server makes up: compared by form only
 * (RFC 4918 15.1 creationdate, 15.7 getlastmodified, 15.6 getetag).
 */
const DAV_FORMS: Record<string, { form: RegExp; what: string }> = {
  '{DAV:}creationdate': {
    form: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i,
    what: 'an RFC 3339 time',
  },
  '{DAV:}getlastmodified': {
    form: /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
    what: 'an HTTP date',
  },
  '{DAV:}getetag': { form: /^(W\/)?"[^"]*"$/, what: 'an entity tag' },
};

/** Prefix -> namespace URI in scope at an element. */
type Scope = ReadonlyMap<string, string>;

/** The scope inside an element: its own xmlns declarations over the outer ones. */
function scopeOf(attrs: Record<string, string>, outer: Scope): Scope {
  const declared = Object.keys(attrs).filter((k) => k === 'xmlns' || k.startsWith('xmlns:'));
  if (declared.length === 0) return outer;
  const scope = new Map(outer);
  for (const k of declared) scope.set(k === 'xmlns' ? '' : k.slice(6), attrs[k]!);
  return scope;
}

/** A name as a reader matches it: "{namespace}local" when its prefix is declared, else as written. */
function qualified(name: string, scope: Scope, isElement: boolean): string {
  const colon = name.indexOf(':');
  const prefix = colon < 0 ? (isElement ? '' : undefined) : name.slice(0, colon);
  const ns = prefix === undefined ? undefined : scope.get(prefix);
  return ns === undefined ? name : `{${ns}}${name.slice(colon + 1)}`;
}

/** Attributes other than namespace declarations (which are syntax: compared through the names they resolve). */
function plainAttributes(attrs: Record<string, string>, scope: Scope): Map<string, { name: string; value: string }> {
  const out = new Map<string, { name: string; value: string }>();
  for (const [name, value] of Object.entries(attrs)) {
    if (name !== 'xmlns' && !name.startsWith('xmlns:')) out.set(qualified(name, scope, false), { name, value });
  }
  return out;
}

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
 * Differences between two XML documents, element by element in order: names (by namespace, whatever the
 * prefix), attributes, text. Timestamp elements only need to hold integers on both sides, WebDAV's made-up
 * values only their form. At most `limit` lines.
 */
export function compareXml(expected: Ordered, actual: Ordered, limit = 10): string[] {
  const out: string[] = [];
  const none: Scope = new Map();
  walk({ nodes: expected, scope: none }, { nodes: actual, scope: none }, { path: '', name: '' }, out, limit);
  return out;
}

/** One side's children at a place in the walk, with the namespaces in scope there. */
interface Side {
  nodes: Ordered;
  scope: Scope;
}

function nameOf(node: Record<string, unknown>): string {
  return Object.keys(node).find((k) => k !== ':@') ?? '';
}

/** An element's children with the scope they are read in (its own declarations included). */
function inside(node: Record<string, unknown>, scope: Scope): Side {
  return {
    nodes: node[nameOf(node)] as Ordered,
    scope: scopeOf((node[':@'] ?? {}) as Record<string, string>, scope),
  };
}

/**
 * Compares two elements' contents; `at.path` names the place as the recording writes it, `at.name` is the
 * element's resolved name. A WebDAV prop's properties are a set: their order carries no meaning (RFC 4918 14.18).
 */
function walk(a: Side, b: Side, at: { path: string; name: string }, out: string[], limit: number): void {
  const { path, name: leaf } = at;
  const resolvedName = (side: Side) => (n: Record<string, unknown>) =>
    qualified(nameOf(n), scopeOf((n[':@'] ?? {}) as Record<string, string>, side.scope), true);
  const nameA = resolvedName(a);
  const nameB = resolvedName(b);
  const ea = a.nodes.filter((n) => !nameOf(n).startsWith('#'));
  const eb = b.nodes.filter((n) => !nameOf(n).startsWith('#'));
  if (leaf === '{DAV:}prop') {
    const by =
      (q: (n: Record<string, unknown>) => string) => (x: Record<string, unknown>, y: Record<string, unknown>) =>
        q(x) < q(y) ? -1 : q(x) > q(y) ? 1 : 0;
    ea.sort(by(nameA));
    eb.sort(by(nameB));
  }
  const ta = textOf(a.nodes);
  const tb = textOf(b.nodes);
  const davForm = DAV_FORMS[leaf];
  if (TIMESTAMPS.includes(leaf.replace(/^\{[^}]*\}/, ''))) {
    if (!/^\d+$/.test(ta) || !/^\d+$/.test(tb))
      push(out, limit, `${path}: expected a timestamp, got "${tb}" (recorded "${ta}")`);
  } else if (davForm) {
    if (davForm.form.test(ta) && !davForm.form.test(tb))
      push(out, limit, `${path}: expected ${davForm.what}, got "${tb}" (recorded "${ta}")`);
  } else if (ta !== tb) push(out, limit, `${path || '/'} text: expected "${ta}", got "${tb}"`);
  const count = new Map<string, number>();
  for (let i = 0; i < Math.max(ea.length, eb.length); i++) {
    const x = ea[i];
    const y = eb[i];
    if (!x || !y || nameA(x) !== nameB(y)) {
      push(
        out,
        limit,
        `${path}/ element ${i + 1}: expected <${x ? nameOf(x) : 'nothing'}>, got <${y ? nameOf(y) : 'nothing'}>`,
      );
      continue;
    }
    const name = nameOf(x);
    const n = (count.get(name) ?? 0) + 1;
    count.set(name, n);
    const here = `${path}/${name}${n > 1 ? `[${n}]` : ''}`;
    const innerA = inside(x, a.scope);
    const innerB = inside(y, b.scope);
    const attrsA = plainAttributes((x[':@'] ?? {}) as Record<string, string>, innerA.scope);
    const attrsB = plainAttributes((y[':@'] ?? {}) as Record<string, string>, innerB.scope);
    for (const attr of new Set([...attrsA.keys(), ...attrsB.keys()])) {
      const va = attrsA.get(attr);
      const vb = attrsB.get(attr);
      if (va?.value !== vb?.value) {
        const written = va?.name ?? vb!.name;
        push(out, limit, `${here}/@${written}: expected ${show(va?.value)}, got ${show(vb?.value)}`);
      }
    }
    walk(innerA, innerB, { path: here, name: nameA(x) }, out, limit);
  }
}

const show = (v: string | undefined): string => (v === undefined ? 'nothing' : `"${v}"`);

function push(out: string[], limit: number, line: string): void {
  if (out.length < limit) out.push(line);
}
