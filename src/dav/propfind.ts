import type { Request, Response } from 'express';
import { SEND_NOW, type Answer } from '../http/answer.js';
import type { CloudStore } from '../domain/cloud-store.js';
import { HttpError, badRequest } from '../http/errors.js';
import type { NodeRecord } from '../domain/model.js';
import { DAV_NS, clarkName, elementsOf, isDav, parseClark, type XmlElement } from '../xml/namespaced.js';
import { readXmlBody } from './body.js';
import { ALLPROP_LIVE, LIVE_PROPS, liveProp, propContext, type PropContext } from './live-props.js';
import {
  DAV_XML_TYPE,
  emptyPropElement,
  entryXml,
  multistatusHead,
  multistatusTail,
  davErrorAnswer,
  type MultiStatusEntry,
  type PropStat,
} from './multistatus.js';
import { davHref } from './paths.js';
import { baseOf, targetOf } from './target.js';
import { notFound } from '../domain/errors.js';
import { CSP_MOCK_NS } from './error-body.js';
import { escapeXml } from '../xml/codec.js';
import { CHILD_PAGE } from '../domain/child-listing.js';

/** Inferred bound: a Depth: infinity PROPFIND over more nodes than this is refused (RFC 4918 9.1). */
export const MAX_INFINITE_PROPFIND = 10_000;

/**
 * Inferred bound: distinct property names one PROPFIND body may ask for (prop, or allprop's include);
 * duplicates count once. Real clients ask for a dozen; more is refused with 413 before any work.
 */
export const MAX_PROPFIND_NAMES = 1_000;

/**
 * Inferred bound: property values one answer may hold (for each member answered, the names asked,
 * or for allprop and propname its live and dead properties). Allprop over a folder of 100,000 files
 * fits; more is refused with 507 and an explanation before any of it is built.
 */
export const MAX_PROPFIND_VALUES = 2_000_000;

interface PropName {
  ns: string;
  local: string;
}
type PropRequest =
  | { mode: 'allprop'; include: PropName[] }
  | { mode: 'propname' }
  | { mode: 'prop'; names: PropName[] };

export async function propfind(
  store: CloudStore,
  req: Request,
  res: Response,
  maxNodes = MAX_INFINITE_PROPFIND,
): Promise<Answer> {
  const target = targetOf(store, req, res);
  const depth = parseDepth(req.get('depth'));
  const request = parsePropfind(await readXmlBody(req, refuseManyNames));
  const node = target.node;
  if (!node) throw notFound('resource', `nothing at ${req.originalUrl}`);
  const ctx = propContext(store, target.user, baseOf(req));
  const self: Member = { node, href: davHref(ctx.base, store.tree.pathNames(node.id), node.kind === 'container') };
  if (depth === '0' || node.kind === 'file') return entriesAnswer(ctx, request, { nodes: [node], pages: [[self]] });
  if (depth === '1') {
    // Members added, changed or removed while the answer is written show in the next listing, never half in this one.
    const members = store.listing(target.user, node.id);
    const pages = async function* (): AsyncGenerator<readonly Member[]> {
      yield [self];
      for await (const page of members.pages()) yield page.map((child) => ({ node: child, href: hrefIn(self, child) }));
    };
    // A big collection's answer starts with the collection's own response before its members are read.
    const startNow = members.length >= CHILD_PAGE;
    return entriesAnswer(ctx, request, { nodes: [node, ...members.unordered], pages: pages(), startNow });
  }
  const nodes = store.subtree(target.user, node.id, maxNodes); // stops soon past the bound: nothing more is built
  if (nodes.length > maxNodes) return davErrorAnswer(403, '<D:propfind-finite-depth/>');
  // Parents come before their children: each href is its parent's and a name.
  const hrefs = new Map([[node.id, self.href]]);
  const members = nodes.map((n): Member => {
    const href = n === node ? self.href : hrefIn({ node: n, href: hrefs.get(n.parentId!)! }, n);
    if (n.kind === 'container') hrefs.set(n.id, href);
    return { node: n, href };
  });
  const pages: Array<readonly Member[]> = [];
  for (let i = 0; i < members.length; i += CHILD_PAGE) pages.push(members.slice(i, i + CHILD_PAGE));
  return entriesAnswer(ctx, request, { nodes, pages });
}

/** A node and its href in the answer. */
interface Member {
  node: NodeRecord;
  href: string;
}

/** The href of `child` inside the collection `parent`. */
const hrefIn = (parent: Member, child: NodeRecord): string =>
  `${parent.href}${encodeURIComponent(child.name)}${child.kind === 'container' ? '/' : ''}`;

/**
 * A PROPFIND's 207: first the bound on its size, counted over `nodes` before any of it is made (507
 * past it), then the entries of `pages` in order, written while they are made (sendAnswer's pieces):
 * a big answer never holds the event loop, or memory, for its whole size. With `startNow`, the first
 * page goes out before the next is read.
 */
function entriesAnswer(
  ctx: PropContext,
  request: PropRequest,
  answer: {
    nodes: readonly NodeRecord[];
    pages: AsyncIterable<readonly Member[]> | Iterable<readonly Member[]>;
    startNow?: boolean;
  },
): Answer {
  let values = 0;
  for (const n of answer.nodes) values += valuesFor(n, request);
  if (values > MAX_PROPFIND_VALUES) return tooLargeAnswer(values, answer.nodes.length);
  async function* pieces(): AsyncGenerator<string | typeof SEND_NOW> {
    yield multistatusHead();
    let first = true;
    for await (const page of answer.pages) {
      for (const m of page) yield entryXml(responseFor(ctx, m.node, m.href, request));
      if (first && answer.startNow) yield SEND_NOW;
      first = false;
    }
    yield multistatusTail();
  }
  return { status: 207, headers: { 'Content-Type': DAV_XML_TYPE }, body: { pieces: pieces() } };
}

/** How many property values the answer holds for one node. */
function valuesFor(node: NodeRecord, request: PropRequest): number {
  if (request.mode === 'prop') return request.names.length;
  let dead = 0;
  for (const key in node.deadProps) if (Object.hasOwn(node.deadProps, key)) dead++;
  return LIVE_PROPS.length + dead + (request.mode === 'allprop' ? request.include.length : 0);
}

/** 507 with the reason: the answer would hold more property values than one answer may. */
function tooLargeAnswer(values: number, members: number): Answer {
  const why =
    `this PROPFIND would answer ${values} property values over ${members} members; at most ` +
    `${MAX_PROPFIND_VALUES} are answered at once: ask for fewer properties, or with Depth: 0 or 1 on smaller collections`;
  return davErrorAnswer(507, `<M:propfind-too-large xmlns:M="${CSP_MOCK_NS}">${escapeXml(why)}</M:propfind-too-large>`);
}

function parseDepth(header: string | undefined): '0' | '1' | 'infinity' {
  const value = (header ?? 'infinity').trim().toLowerCase();
  if (value === '0' || value === '1' || value === 'infinity') return value;
  throw badRequest(`Depth must be 0, 1 or infinity, got "${header}"`);
}

function parsePropfind(body: XmlElement | undefined): PropRequest {
  if (!body) return { mode: 'allprop', include: [] };
  if (!isDav(body, 'propfind')) throw badRequest('the PROPFIND body must be a DAV:propfind element');
  const kids = elementsOf(body);
  const prop = kids.find((k) => isDav(k, 'prop'));
  const names = (el: XmlElement | undefined): PropName[] => (el ? distinctNames(elementsOf(el)) : []);
  if (kids.some((k) => isDav(k, 'propname'))) return { mode: 'propname' };
  if (kids.some((k) => isDav(k, 'allprop')))
    return { mode: 'allprop', include: names(kids.find((k) => isDav(k, 'include'))) };
  if (prop) return { mode: 'prop', names: names(prop) };
  throw badRequest('DAV:propfind needs prop, allprop or propname');
}

/** The names asked for, each once; more than MAX_PROPFIND_NAMES is 413 (the request asks more than is answered). */
function distinctNames(elements: XmlElement[]): PropName[] {
  const byKey = new Map<string, PropName>();
  for (const p of elements) byKey.set(clarkName(p.ns, p.local), { ns: p.ns, local: p.local });
  if (byKey.size > MAX_PROPFIND_NAMES) {
    throw new HttpError(413, `the PROPFIND body names ${byKey.size} distinct properties; ${ANSWERED}`);
  }
  return [...byKey.values()];
}

const ANSWERED = `at most ${MAX_PROPFIND_NAMES} distinct properties are answered in one request`;
/** Element names as written (prefix:local); the few that are not property names (propfind, prop...) are slack. */
const ELEMENT_NAME = /<([^\s/>!?]+)/g;
const WRAPPERS = 8;

/** Elements a PROPFIND body may hold at all (the same name may repeat, up to this). */
export const MAX_PROPFIND_ELEMENTS = 10 * MAX_PROPFIND_NAMES;

/**
 * Before the parse, whose cost grows with the elements: a body with far more distinct element names
 * than may be asked for, or more elements than MAX_PROPFIND_ELEMENTS, is refused at once.
 */
function refuseManyNames(text: string): void {
  const names = new Set<string>();
  let elements = 0;
  for (const m of text.matchAll(ELEMENT_NAME)) {
    names.add(m[1]!);
    elements++;
  }
  if (names.size > MAX_PROPFIND_NAMES + WRAPPERS) {
    throw new HttpError(
      413,
      `the PROPFIND body names more than ${MAX_PROPFIND_NAMES} distinct properties (${names.size} distinct element names); ${ANSWERED}`,
    );
  }
  if (elements > MAX_PROPFIND_ELEMENTS) {
    throw new HttpError(
      413,
      `the PROPFIND body holds ${elements} elements; at most ${MAX_PROPFIND_ELEMENTS} are read (${ANSWERED})`,
    );
  }
}

function valueOf(ctx: PropContext, node: NodeRecord, name: PropName): string | undefined {
  if (name.ns === DAV_NS && (LIVE_PROPS as readonly string[]).includes(name.local))
    return liveProp(ctx, node, name.local);
  return node.deadProps[clarkName(name.ns, name.local)];
}

function responseFor(ctx: PropContext, node: NodeRecord, href: string, request: PropRequest): MultiStatusEntry {
  const deadNames = Object.keys(node.deadProps).map(parseClark);
  if (request.mode === 'propname') {
    const live = LIVE_PROPS.filter((p) => liveProp(ctx, node, p) !== undefined).map((local) => ({ ns: DAV_NS, local }));
    return { href, propstats: [{ status: 200, props: [...live, ...deadNames].map(emptyPropElement) }] };
  }
  const wanted =
    request.mode === 'allprop'
      ? [...ALLPROP_LIVE.map((local) => ({ ns: DAV_NS, local })), ...deadNames, ...request.include]
      : request.names;
  const found: string[] = [];
  const missing: string[] = [];
  const seen = new Set<string>();
  for (const name of wanted) {
    const key = clarkName(name.ns, name.local);
    if (seen.has(key)) continue;
    seen.add(key);
    const value = valueOf(ctx, node, name);
    if (value !== undefined) found.push(value);
    else if (request.mode === 'prop') missing.push(emptyPropElement(name));
  }
  const propstats: PropStat[] = [];
  if (found.length > 0 || missing.length === 0) propstats.push({ status: 200, props: found });
  if (missing.length > 0) propstats.push({ status: 404, props: missing });
  return { href, propstats };
}
