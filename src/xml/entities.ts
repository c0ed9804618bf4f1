import type { NodeRecord } from '../domain/model.js';
import { ATTR, XLINK_NS, buildXml, rawXml, type XmlNode } from './codec.js';
import { CLOUD_LINKS, type CloudLinkName, type Links } from './links.js';
import { digest, entityKey, itemKey, type ItemView } from './entity-tags.js';

/** Entity mappers: typed views in, element trees out. Field order is the real service's (README, The /v2 interface: Fidelity). */

export interface ContainerView {
  node: NodeRecord;
  /** Bytes stored in the container's subtree. */
  bytes: number;
  /** With X-Cloud-Depth 2, the container's children inline. */
  contents?: Page<ItemView>;
  /** With X-Cloud-Depth 2, the metadata keys, one metadata-item link each. */
  metadataKeys?: string[];
}
export interface Page<T> {
  items: T[];
  start: number;
  total: number;
}
export interface AccountView {
  username: string;
  allocated: number;
  used: number;
  bandwidthAllocated: number;
}

export const link = (href: string, extra: XmlNode = {}): XmlNode => ({
  [`${ATTR}xlink:href`]: href,
  [`${ATTR}xlink:type`]: 'simple',
  ...extra,
});
export const rootElement = (name: string, body: XmlNode): XmlNode => ({
  [name]: { [`${ATTR}xmlns:xlink`]: XLINK_NS, ...body },
});
const bool = (b: boolean): string => (b ? 'true' : 'false');
const pageAttrs = (page: Page<unknown>): XmlNode => ({
  [`${ATTR}count`]: page.items.length,
  [`${ATTR}start`]: page.start,
  [`${ATTR}total`]: page.total,
});

/**
 * The metadata link; at depth 2 it holds one metadata-item link per key, as the real service wrote it
 * (test/fixtures/rest/depth-2-file-metadata.xml) and the Java client reads keys from.
 */
function metadataLink(self: string, keys: string[] | undefined): XmlNode {
  const href = `${self}/metadata`;
  if (!keys?.length) return link(href);
  return link(href, { 'metadata-item': keys.map((key) => link(`${href}/${encodeURIComponent(key)}`)) });
}

function commonFields(node: NodeRecord): XmlNode {
  return {
    name: node.name,
    created: node.created,
    inproject: 'false',
    modified: node.modified,
    owner: node.owner,
    version: node.version,
    shared: 'false',
    accessed: node.accessed,
  };
}

/** `items`: what stands in the contents link for its items (a mark where they are written one by one). */
export function containerFields(view: ContainerView, links: Links, items?: XmlNode): XmlNode {
  const { node } = view;
  const contents = view.contents
    ? link(links.contents(node.id), {
        ...pageAttrs(view.contents),
        ...(items ?? itemElements(view.contents.items, links, 'inline')),
      })
    : link(links.contents(node.id));
  return {
    ...commonFields(node),
    bytes: view.bytes,
    contents,
    tags: link(`${links.container(node.id)}/tags`),
    metadata: metadataLink(links.container(node.id), view.metadataKeys),
    parent: link(links.container(node.parentId ?? node.id)),
  };
}

export function fileFields(node: NodeRecord, links: Links, metadataKeys?: string[]): XmlNode {
  const self = links.file(node.id);
  return {
    ...commonFields(node),
    public: bool(node.public),
    mime_type: node.mimeType,
    bytes: node.bytes,
    content: link(links.content(node.id)),
    parent: link(links.container(node.parentId ?? node.id)),
    permissions: link(`${self}/permissions`),
    tags: link(`${self}/tags`),
    metadata: metadataLink(self, metadataKeys),
    thumbnail: link(`${self}/thumbnail`),
  };
}

/**
 * Children of a container entity at depth 2 ('inline': fields directly in the link element), or bare
 * links ('link'); containers first, then files.
 */
export function itemElements(items: ItemView[], links: Links, shape: 'link' | 'inline'): XmlNode {
  const containers: XmlNode[] = [];
  const files: XmlNode[] = [];
  for (const item of items) {
    const { node } = item;
    const element =
      shape === 'link' ? link(links.resource(node.kind, node.id)) : rawXml(itemFragment(item, links, shape).text);
    (node.kind === 'container' ? containers : files).push(element);
  }
  const out: XmlNode = {};
  if (containers.length) out['container'] = containers;
  if (files.length) out['file'] = files;
  return out;
}

const itemFields = (item: ItemView, links: Links): XmlNode =>
  item.node.kind === 'container' ? containerFields(item, links) : fileFields(item.node, links, item.metadataKeys);

/** An entity's or a listing item's text, made for `key` (entityKey: every field the text depends on). */
export interface EntityText {
  key: string;
  text: string;
  /** A whole entity's strong ETag. */
  tag?: string;
}

/** Where entity texts are kept between requests: the store's one bounded cache (a shelf of StoreCache). */
export interface EntityTexts {
  get(key: string): EntityText | undefined;
  set(key: string, value: EntityText, bytes: number): void;
}

/** A text kept under `id` when its key still matches; else made, and kept when `keep`. */
function kept(
  texts: EntityTexts | undefined,
  id: string,
  key: string,
  keep: boolean,
  make: () => EntityText,
): EntityText {
  const hit = texts?.get(id);
  if (hit?.key === key) return hit;
  const made = make();
  if (keep) texts?.set(id, made, 2 * (made.text.length + key.length));
  return made;
}

/**
 * Listing items with their fields (depth 1 wrapped, depth 2 inline), serialised once per node version
 * and shape: the key holds every field the text depends on (accessed, a container's bytes, the links'
 * base), so a listing is mostly concatenation. With `keep` false (a page of a big listing) a text is
 * used if made before but not kept, so listing a big container once does not crowd the cache.
 */
export function itemFragment(
  item: ItemView,
  links: Links,
  shape: 'wrapped' | 'inline',
  texts?: EntityTexts,
  keep = true,
): EntityText {
  const { node } = item;
  const key = itemKey(item, links);
  return kept(texts, `${shape}:${node.id}`, key, keep, () => {
    const href = links.resource(node.kind, node.id);
    const fields = itemFields(item, links);
    return { key, text: buildXml({ [node.kind]: link(href, shape === 'wrapped' ? { [node.kind]: fields } : fields) }) };
  });
}

/**
 * One member of a file-list written on its own: a bare link (depth 0) or its entity wrapped in the
 * link (depth 1); or one child inlined in a depth-2 container entity.
 */
export function listingItemXml(
  item: ItemView,
  links: Links,
  shape: 'link' | 'wrapped' | 'inline',
  keep: boolean,
  texts?: EntityTexts,
): string {
  const { node } = item;
  if (shape === 'link') return buildXml({ [node.kind]: link(links.resource(node.kind, node.id)) });
  return itemFragment(item, links, shape, texts, keep).text;
}

/** Marks where a frame's items go; no element or text of ours holds a NUL. */
const ITEMS_MARK = '\u0000items\u0000';

/**
 * A file-list's start and end, for items written one by one between them (rest/listing-slices.ts),
 * made by the same serialiser as every entity; a list without items is `fileListEntity`'s.
 */
export function fileListFrame(count: number, start: number, total: number): { head: string; tail: string } {
  const whole = buildXml(rootElement('file-list', { ...listAttrs(count, start, total), items: rawXml(ITEMS_MARK) }));
  const at = whole.indexOf(ITEMS_MARK);
  return { head: whole.slice(0, at), tail: whole.slice(at + ITEMS_MARK.length) };
}

/** A file-list without items (an empty page). */
export const emptyFileList = (start: number, total: number): string =>
  buildXml(rootElement('file-list', listAttrs(0, start, total)));

const listAttrs = (count: number, start: number, total: number): XmlNode => ({
  [`${ATTR}count`]: count,
  [`${ATTR}start`]: start,
  [`${ATTR}total`]: total,
});

/**
 * A depth-2 container entity's text before and after its inline children, for children written one
 * by one between them (rest/depth-two-entity.ts), made by the same serialiser as the whole entity.
 * Without children, `head` is the whole entity and `tail` is empty.
 */
export function containerEntityFrame(view: ContainerView, links: Links): { head: string; tail: string } {
  if (!view.contents?.items.length) return { head: buildXml(containerEntity(view, links)), tail: '' };
  const whole = buildXml(rootElement('container', containerFields(view, links, { items: rawXml(ITEMS_MARK) })));
  const at = whole.indexOf(ITEMS_MARK);
  return { head: whole.slice(0, at), tail: whole.slice(at + ITEMS_MARK.length) };
}

export const containerEntity = (view: ContainerView, links: Links): XmlNode =>
  rootElement('container', containerFields(view, links));

/**
 * A file's entity, the entity sent most: its text made once per node version (see itemFragment), and a
 * strong ETag made from the node (its id, version and the fields the text depends on), never by hashing the text.
 */
export function fileEntity(node: NodeRecord, links: Links, metadataKeys?: string[], texts?: EntityTexts): EntityText {
  const key = entityKey(node, links, node.bytes, metadataKeys);
  return kept(texts, `file:${node.id}`, key, true, () => ({
    key,
    text: buildXml(rootElement('file', fileFields(node, links, metadataKeys))),
    tag: `"${node.id}-${node.version}-${digest(key)}"`,
  }));
}

export function accountFields(view: AccountView): XmlNode {
  return {
    username: view.username,
    account_type: 1,
    storage: { allocated: view.allocated, used: view.used },
    s3: { authid: `${view.username}-s3`, authkey: 'csp-mock-not-a-real-key' },
    bandwidth: { allocated: view.bandwidthAllocated, total: 0, public: 0, private: 0 },
  };
}
export const accountEntity = (view: AccountView): XmlNode => rootElement('account-info', accountFields(view));

export function tagListFields(page: Page<string>, links: Links): XmlNode {
  return { ...pageAttrs(page), ...(page.items.length ? { tag: page.items.map((t) => link(links.tag(t))) } : {}) };
}
export const tagListEntity = (page: Page<string>, links: Links): XmlNode =>
  rootElement('tags', tagListFields(page, links));

export const tagEntity = (name: string, links: Links): XmlNode =>
  rootElement('tag', { name, objects: link(links.tagObjects(name)) });

/** An empty collection (contacts, shares, projects, metacontainers): the document shows none of their fields. */
export const emptyCollectionEntity = (name: string): XmlNode =>
  rootElement(name, pageAttrs({ items: [], start: 0, total: 0 }));

export function recycleBinFields(page: Page<NodeRecord>, links: Links): XmlNode {
  const items = page.items.map((n) =>
    link(links.recycled(n.id), {
      originalname: n.name,
      recycleddate: n.recycled ?? 0,
      type: n.kind,
      original: link(links.resource(n.kind, n.id)),
    }),
  );
  return { ...pageAttrs(page), ...(items.length ? { 'recycled-item': items } : {}) };
}
export const recycleBinEntity = (page: Page<NodeRecord>, links: Links): XmlNode =>
  rootElement('recyclebin', recycleBinFields(page, links));

export function metadataEntity(resourceHref: string, metadata: Record<string, string>): XmlNode {
  const keys = Object.keys(metadata).sort();
  const items = keys.map((key) => link(`${resourceHref}/metadata/${encodeURIComponent(key)}`, { name: key }));
  return rootElement('metadata', {
    ...pageAttrs({ items: keys, start: 0, total: keys.length }),
    ...(items.length ? { 'metadata-item': items } : {}),
  });
}

export const permissionsEntity = (node: NodeRecord): XmlNode =>
  rootElement('permissions', { owner: node.owner, read: 'true', write: 'true', delete: 'true', share: 'false' });

/** The entry document: its eight links in order (links.ts); with depth >= 1 each link wraps its entity. */

export function cloudEntity(hrefs: Record<CloudLinkName, string>, wrapped?: Record<CloudLinkName, XmlNode>): XmlNode {
  const body: XmlNode = {};
  for (const name of CLOUD_LINKS) body[name] = link(hrefs[name], wrapped?.[name] ?? {});
  return rootElement('cloud', body);
}
