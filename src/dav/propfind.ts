import type { Request, Response } from 'express';
import type { CloudStore } from '../domain/cloud-store.js';
import { badRequest } from '../http/errors.js';
import type { NodeRecord } from '../domain/model.js';
import { DAV_NS, clarkName, elementsOf, isDav, parseClark, type XmlElement } from '../xml/namespaced.js';
import { readXmlBody } from './body.js';
import { ALLPROP_LIVE, LIVE_PROPS, liveProp, propContext, type PropContext } from './live-props.js';
import {
  emptyPropElement,
  sendDavError,
  sendMultistatus,
  type MultiStatusEntry,
  type PropStat,
} from './multistatus.js';
import { davHref } from './paths.js';
import { baseOf, targetOf } from './target.js';
import { notFound } from '../domain/errors.js';

/** Inferred bound: a Depth: infinity PROPFIND over more nodes than this is refused (RFC 4918 9.1). */
export const MAX_INFINITE_PROPFIND = 10_000;

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
): Promise<void> {
  const target = targetOf(store, req, res);
  const depth = parseDepth(req.get('depth'));
  const request = parsePropfind(await readXmlBody(req));
  const node = target.node;
  if (!node) throw notFound('resource', `nothing at ${req.originalUrl}`);
  let nodes: NodeRecord[];
  if (depth === '0' || node.kind === 'file') nodes = [node];
  else if (depth === '1') nodes = [node, ...store.children(target.user, node.id)];
  else {
    nodes = store.tree.subtree(node.id, maxNodes); // stops soon past the bound: nothing more is built
    if (nodes.length > maxNodes) {
      sendDavError(res, 403, 'propfind-finite-depth');
      return;
    }
  }
  const ctx = propContext(store, target.user, baseOf(req));
  sendMultistatus(
    res,
    nodes.map((n) => responseFor(ctx, n, request)),
  );
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
  const names = (el: XmlElement | undefined): PropName[] =>
    el ? elementsOf(el).map((p) => ({ ns: p.ns, local: p.local })) : [];
  if (kids.some((k) => isDav(k, 'propname'))) return { mode: 'propname' };
  if (kids.some((k) => isDav(k, 'allprop')))
    return { mode: 'allprop', include: names(kids.find((k) => isDav(k, 'include'))) };
  if (prop) return { mode: 'prop', names: names(prop) };
  throw badRequest('DAV:propfind needs prop, allprop or propname');
}

function valueOf(ctx: PropContext, node: NodeRecord, name: PropName): string | undefined {
  if (name.ns === DAV_NS && (LIVE_PROPS as readonly string[]).includes(name.local))
    return liveProp(ctx, node, name.local);
  return node.deadProps[clarkName(name.ns, name.local)];
}

function responseFor(ctx: PropContext, node: NodeRecord, request: PropRequest): MultiStatusEntry {
  const href = davHref(ctx.base, ctx.store.tree.pathNames(node.id), node.kind === 'container');
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
