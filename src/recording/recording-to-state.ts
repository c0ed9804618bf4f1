import type { NodeKind } from '../domain/model.js';
import type { RecordedObject, RecordedTree } from './recorded-tree.js';
import { hrefOf, parseXml, textOf, type XmlNode, type XmlValue } from '../xml/codec.js';
import { headerValue, type Exchange, type Recording } from './format.js';
import { mediaTypeOf } from '../http/media-type.js';
import { boundaryOf } from './normalise.js';
import { fileFromMultipart } from './recorded-multipart.js';
import { readDavExchanges } from './dav-listings.js';

const LINK = /\/v2\/(containers|files)\/([^/?#"\s<]+)/;

/** The object a /v2 link names, its id percent-decoded (a badly encoded one as it stands). */
export function idOfLink(href: string | undefined): { kind: NodeKind; id: string } | undefined {
  const m = LINK.exec(href ?? '');
  return m ? { kind: m[1] === 'containers' ? 'container' : 'file', id: decoded(m[2]!) } : undefined;
}

/** A percent-decoded path segment; a badly encoded one (a recording from elsewhere) stays as it is. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function xmlOf(body: Buffer): XmlNode | undefined {
  try {
    return parseXml(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

const asArray = (v: XmlValue): XmlValue[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const truthy = (v: string | undefined): boolean | undefined => (v === undefined ? undefined : /^true$/i.test(v.trim()));

/**
 * What a recording shows of each user's tree at its end: containers and files (ids as recorded),
 * names, parents, types, public flags, tags, metadata and contents, read from entry documents,
 * entities, listings, creates (XML and multipart), content writes (whole and Content-Range blocks)
 * and reads, tag and metadata listings, reads and writes, renames, moves and deletes; then what its
 * WebDAV exchanges show (dav-listings.ts).
 */
export function recordingToState(recording: Recording): RecordedTree {
  const tree: RecordedTree = { roots: new Map(), objects: new Map() };
  for (const e of recording.exchanges) if (e.response.status < 300) readExchange(tree, e, e.user ?? 'demo');
  readDavExchanges(tree, recording.exchanges);
  return tree;
}

function object(tree: RecordedTree, user: string, kind: NodeKind, id: string): RecordedObject {
  let o = tree.objects.get(id);
  if (!o) {
    o = { id, kind, user, tags: [], metadata: {}, deleted: false };
    tree.objects.set(id, o);
  }
  return o;
}

function applyFields(o: RecordedObject, entity: XmlNode | undefined): void {
  if (!entity || typeof entity !== 'object') return;
  const name = textOf(entity['name']);
  if (name !== undefined) o.name = name;
  const mime = textOf(entity['mime_type']);
  if (mime !== undefined) o.mimeType = mime;
  const bytes = textOf(entity['bytes']);
  if (o.kind === 'file' && bytes !== undefined && /^\d+$/.test(bytes.trim())) o.bytes = Number(bytes);
  const pub = truthy(textOf(entity['public']));
  if (pub !== undefined) o.public = pub;
  const parent = idOfLink(hrefOf(entity['parent']));
  if (parent && o.parentId !== null) o.parentId = parent.id === o.id ? null : parent.id;
  // Depth 2: the metadata link holds one metadata-item link per key (values are not in the entity).
  const metadata = entity['metadata'];
  if (metadata && typeof metadata === 'object' && !Array.isArray(metadata)) {
    for (const item of asArray(metadata['metadata-item'])) learnKey(o, keyOfItem(item));
  }
}

function learnKey(o: RecordedObject, key: string | undefined): void {
  if (key !== undefined && !Object.hasOwn(o.metadata, key)) o.metadata[key] = '';
}

/** A metadata-item's key: its <name>, else the last segment of its link. */
function keyOfItem(item: XmlValue): string | undefined {
  const name = item && typeof item === 'object' && !Array.isArray(item) ? textOf(item['name']) : undefined;
  if (name !== undefined) return name;
  const href = hrefOf(item);
  return href
    ? decoded(
        href
          .replace(/[?#].*$/, '')
          .split('/')
          .pop() ?? '',
      ) || undefined
    : undefined;
}

/** A tag link's name: its <name>, else the segment after /tags/. */
function tagOfItem(item: XmlValue): string | undefined {
  const name = item && typeof item === 'object' && !Array.isArray(item) ? textOf(item['name']) : undefined;
  if (name !== undefined) return name;
  const m = /\/tags\/([^/?#]+)/.exec(hrefOf(item) ?? '');
  return m ? decoded(m[1]!) : undefined;
}

/** A listing shows every item when it is not a page of a longer one. */
function isWhole(list: XmlNode): boolean {
  const count = list['@_count'];
  const total = list['@_total'];
  return count === undefined || total === undefined || String(count) === String(total);
}

/** An exchange about one object, read with the object and the kind its link names. */
interface ObjectRead {
  tree: RecordedTree;
  e: Exchange;
  user: string;
  o: RecordedObject;
  kind: NodeKind;
  /** The path after the object's link, matched: [1] is the tag or metadata key when the pattern has one. */
  m: RegExpExecArray;
}

const responseXml = (e: Exchange): XmlNode | undefined => xmlOf(e.response.body);
const requestXml = (e: Exchange): XmlNode | undefined => xmlOf(e.request.body);
const addTag = (o: RecordedObject, tag: string | undefined): void => {
  if (tag && !o.tags.includes(tag)) o.tags.push(tag);
};

/**
 * What each exchange about an object shows, by method and the path after its /v2/containers/<id> or
 * /v2/files/<id> link: its fields, its children, a create inside it, its content, its tags and metadata, a delete.
 */
const OBJECT_READERS: ReadonlyArray<[method: string, rest: RegExp, read: (r: ObjectRead) => void]> = [
  ['GET', /^$/, ({ e, o, kind }) => applyFields(o, responseXml(e)?.[kind] as XmlNode | undefined)],
  ['PUT', /^$/, ({ e, o, kind }) => applyFields(o, requestXml(e)?.[kind] as XmlNode | undefined)],
  ['DELETE', /^$/, ({ o }) => void (o.deleted = true)],
  ['GET', /^\/contents$/, readChildren],
  ['POST', /^\/contents$/, readCreate],
  ['PUT', /^\/content$/, ({ e, o }) => writeContent(o, e)],
  ['GET', /^\/content(\/[^/]+)?$/, ({ e, o }) => void (e.response.status === 200 && (o.content = e.response.body))],
  ['POST', /^\/tags$/, ({ e, o }) => addTag(o, textOf((requestXml(e)?.['tag'] as XmlNode | undefined)?.['name']))],
  ['PUT', /^\/tags\/(.*)$/s, ({ o, m }) => addTag(o, decoded(m[1]!))],
  ['DELETE', /^\/tags\/(.*)$/s, ({ o, m }) => void (o.tags = o.tags.filter((t) => t !== decoded(m[1]!)))],
  ['GET', /^\/tags$/, readTagList],
  ['GET', /^\/metadata$/, readMetadataList],
  ['PUT', /^\/metadata\/(.*)$/s, ({ e, o, m }) => void (o.metadata[decoded(m[1]!)] = e.request.body.toString('utf8'))],
  [
    'GET',
    /^\/metadata\/(.*)$/s,
    ({ e, o, m }) =>
      void (e.response.status === 200 && (o.metadata[decoded(m[1]!)] = e.response.body.toString('utf8'))),
  ],
  ['DELETE', /^\/metadata\/(.*)$/s, ({ o, m }) => void delete o.metadata[decoded(m[1]!)]],
];

/** What one exchange shows of the tree: the entry document, a tag's objects, or one object (OBJECT_READERS). */
function readExchange(tree: RecordedTree, e: Exchange, user: string): void {
  const { method, path } = e.request;
  const tagObjects = /^\/v2\/tags\/([^/?#]+)\/objects/.exec(path);
  if (method === 'GET' && tagObjects) return readTagObjects(tree, e, user, decoded(tagObjects[1]!));
  if (method === 'GET' && /^\/v2\/?$/.test(path)) return readEntry(tree, e, user);
  const link = LINK.exec(path);
  if (!link) return;
  const target = idOfLink(path)!;
  const o = object(tree, user, target.kind, target.id);
  const rest = path.slice(link.index + link[0].length);
  for (const [wanted, pattern, read] of OBJECT_READERS) {
    const m = method === wanted ? pattern.exec(rest) : null;
    if (m) return read({ tree, e, user, o, kind: target.kind, m });
  }
}

/** GET /v2/tags/<tag>/objects: every object listed carries the tag. */
function readTagObjects(tree: RecordedTree, e: Exchange, user: string, tag: string): void {
  const list = responseXml(e)?.['file-list'] as XmlNode | undefined;
  for (const kind of ['container', 'file'] as const) {
    for (const item of asArray(list?.[kind])) {
      const tagged = idOfLink(hrefOf(item));
      if (tagged) addTag(object(tree, user, kind, tagged.id), tag);
    }
  }
}

/** GET /v2: the user's root container. */
function readEntry(tree: RecordedTree, e: Exchange, user: string): void {
  const root = idOfLink(hrefOf((responseXml(e)?.['cloud'] as XmlNode | undefined)?.['rootContainer']));
  if (root) {
    tree.roots.set(user, root.id);
    object(tree, user, 'container', root.id).parentId = null;
  }
}

/** GET <container>/contents: each child listed, with whatever fields the listing's depth shows. */
function readChildren({ tree, e, user, o: parent }: ObjectRead): void {
  const list = responseXml(e)?.['file-list'] as XmlNode | undefined;
  for (const kind of ['container', 'file'] as const) {
    for (const item of asArray(list?.[kind])) {
      const child = idOfLink(hrefOf(item));
      if (!child) continue;
      const c = object(tree, user, kind, child.id);
      c.parentId = parent.id;
      const inner = item && typeof item === 'object' && !Array.isArray(item) ? (item as XmlNode) : undefined;
      applyFields(c, (inner?.[kind] as XmlNode | undefined) ?? inner);
      c.parentId = parent.id;
    }
  }
}

/** GET <object>/tags: the object's tags (all of them, or some more when the list is a page). */
function readTagList({ e, o }: ObjectRead): void {
  const list = responseXml(e)?.['tags'] as XmlNode | undefined;
  if (!list || typeof list !== 'object') return;
  const listed = asArray(list['tag'])
    .map(tagOfItem)
    .filter((t): t is string => t !== undefined);
  o.tags = isWhole(list) ? listed : [...new Set([...o.tags, ...listed])];
}

/** GET <object>/metadata: the object's keys (a whole list drops the keys it does not hold). */
function readMetadataList({ e, o }: ObjectRead): void {
  const list = responseXml(e)?.['metadata'] as XmlNode | undefined;
  if (!list || typeof list !== 'object') return;
  const keys = asArray(list['metadata-item'])
    .map(keyOfItem)
    .filter((k): k is string => k !== undefined);
  if (isWhole(list)) for (const key of Object.keys(o.metadata)) if (!keys.includes(key)) delete o.metadata[key];
  for (const key of keys) learnKey(o, key);
}

/** A whole new content, or with Content-Range a block written at its offset (bytes before it unknown: zeros). */
function writeContent(o: RecordedObject, e: Exchange): void {
  const range = headerValue(e.request.headers, 'content-range');
  if (range === undefined) {
    o.content = e.request.body;
    return;
  }
  const m = /^\s*bytes\s+(\d+)-\d+\/(?:\d+|\*)\s*$/i.exec(range);
  if (!m) return;
  const offset = Number(m[1]);
  const block = e.request.body;
  const old = o.content ?? Buffer.alloc(0);
  const head = old.length >= offset ? old.subarray(0, offset) : Buffer.concat([old, Buffer.alloc(offset - old.length)]);
  o.content = Buffer.concat([head, block, old.subarray(Math.min(old.length, offset + block.length))]);
}

/** POST <container>/contents: the object created (a multipart upload, or an entity), under its parent. */
function readCreate({ tree, e, user, o: parent }: ObjectRead): void {
  const created = idOfLink(headerValue(e.response.headers, 'location') ?? e.response.body.toString('utf8'));
  if (!created) return;
  const o = object(tree, user, created.kind, created.id);
  o.parentId = parent.id;
  const contentType = headerValue(e.request.headers, 'content-type');
  if (boundaryOf(contentType)) {
    const part = fileFromMultipart(e.request.body, contentType!);
    if (part) Object.assign(o, part);
    return;
  }
  if (mediaTypeOf(contentType).endsWith('+xml'))
    applyFields(o, xmlOf(e.request.body)?.[created.kind] as XmlNode | undefined);
}
