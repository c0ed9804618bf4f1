import type { NodeKind } from '../storage/schema.js';
import { hrefOf, parseXml, textOf, type XmlNode, type XmlValue } from '../xml/codec.js';
import { headerValue, type Exchange, type Recording } from './format.js';
import { boundaryOf, mediaTypeOf } from './normalise.js';

/** One object as the recording shows it at its end. */
export interface RecordedObject {
  id: string;
  kind: NodeKind;
  user: string;
  name?: string;
  /** null for the user's root container. */
  parentId?: string | null;
  mimeType?: string;
  public?: boolean;
  content?: Buffer;
  /** The size listings and entities showed (for a file whose content the recording never read). */
  bytes?: number;
  tags: string[];
  deleted: boolean;
}

export interface RecordedTree {
  /** login -> root container id */
  roots: Map<string, string>;
  objects: Map<string, RecordedObject>;
}

const LINK = /\/v2\/(containers|files)\/([^/?#"\s<]+)/;

function idOfLink(href: string | undefined): { kind: NodeKind; id: string } | undefined {
  const m = LINK.exec(href ?? '');
  return m ? { kind: m[1] === 'containers' ? 'container' : 'file', id: decodeURIComponent(m[2]!) } : undefined;
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
 * names, parents, types, public flags, tags and contents, read from entry documents, entities,
 * listings, creates (XML and multipart), content writes and reads, renames, moves and deletes.
 */
export function recordingToState(recording: Recording): RecordedTree {
  const tree: RecordedTree = { roots: new Map(), objects: new Map() };
  for (const e of recording.exchanges) if (e.response.status < 300) readExchange(tree, e, e.user ?? 'demo');
  return tree;
}

function object(tree: RecordedTree, user: string, kind: NodeKind, id: string): RecordedObject {
  let o = tree.objects.get(id);
  if (!o) {
    o = { id, kind, user, tags: [], deleted: false };
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
}

function readExchange(tree: RecordedTree, e: Exchange, user: string): void {
  const { method, path } = e.request;
  const target = idOfLink(path);
  const m = LINK.exec(path);
  const rest = m ? path.slice(m.index + m[0].length) : '';
  const resXml = () => xmlOf(e.response.body);
  const reqXml = () => xmlOf(e.request.body);

  if (method === 'GET' && /^\/v2\/?$/.test(path)) {
    const root = idOfLink(hrefOf((resXml()?.['cloud'] as XmlNode | undefined)?.['rootContainer']));
    if (root) {
      tree.roots.set(user, root.id);
      object(tree, user, 'container', root.id).parentId = null;
    }
    return;
  }
  if (!target) return;
  const o = object(tree, user, target.kind, target.id);
  if (method === 'GET' && rest === '') applyFields(o, resXml()?.[target.kind] as XmlNode | undefined);
  else if (method === 'GET' && rest === '/contents') {
    const list = resXml()?.['file-list'] as XmlNode | undefined;
    for (const kind of ['container', 'file'] as const) {
      for (const item of asArray(list?.[kind])) {
        const child = idOfLink(hrefOf(item));
        if (!child) continue;
        const c = object(tree, user, kind, child.id);
        c.parentId = target.id;
        const inner = item && typeof item === 'object' && !Array.isArray(item) ? (item as XmlNode) : undefined;
        applyFields(c, (inner?.[kind] as XmlNode | undefined) ?? inner);
        c.parentId = target.id;
      }
    }
  } else if (method === 'POST' && rest === '/contents') readCreate(tree, e, user, target.id);
  else if (method === 'PUT' && rest === '/content' && !headerValue(e.request.headers, 'content-range')) o.content = e.request.body;
  else if (method === 'GET' && /^\/content(\/[^/]+)?$/.test(rest) && e.response.status === 200) o.content = e.response.body;
  else if (method === 'PUT' && rest === '') applyFields(o, reqXml()?.[target.kind] as XmlNode | undefined);
  else if (method === 'DELETE' && rest === '') o.deleted = true;
  else if (method === 'POST' && rest === '/tags') {
    const tag = textOf((reqXml()?.['tag'] as XmlNode | undefined)?.['name']);
    if (tag && !o.tags.includes(tag)) o.tags.push(tag);
  } else if (method === 'PUT' && rest.startsWith('/tags/')) {
    const tag = decodeURIComponent(rest.slice('/tags/'.length));
    if (!o.tags.includes(tag)) o.tags.push(tag);
  }
}

function readCreate(tree: RecordedTree, e: Exchange, user: string, parentId: string): void {
  const created = idOfLink(headerValue(e.response.headers, 'location') ?? e.response.body.toString('utf8'));
  if (!created) return;
  const o = object(tree, user, created.kind, created.id);
  o.parentId = parentId;
  const contentType = headerValue(e.request.headers, 'content-type');
  const boundary = boundaryOf(contentType);
  if (boundary) {
    const part = fileFromMultipart(e.request.body, boundary);
    if (part) Object.assign(o, part);
    return;
  }
  if (mediaTypeOf(contentType).endsWith('+xml')) applyFields(o, xmlOf(e.request.body)?.[created.kind] as XmlNode | undefined);
}

/** The first part with a filename: its last path segment, its type and bytes. */
export function fileFromMultipart(body: Buffer, boundary: string): { name: string; mimeType?: string; content: Buffer } | undefined {
  const delimiter = Buffer.from(`--${boundary}`, 'latin1');
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const next = body.indexOf(delimiter, at + delimiter.length);
    if (next < 0) return undefined;
    const part = body.subarray(at + delimiter.length + 2, next - 2);
    const headEnd = part.indexOf('\r\n\r\n');
    if (headEnd >= 0) {
      const head = part.subarray(0, headEnd).toString('utf8');
      const filename = /filename="([^"]*)"/i.exec(head)?.[1];
      if (filename !== undefined) {
        const type = /content-type:\s*([^\r\n]*)/i.exec(head)?.[1]?.trim();
        return { name: filename.split(/[\\/]/).pop() ?? filename, ...(type && { mimeType: type }), content: part.subarray(headEnd + 4) };
      }
    }
    at = next;
  }
  return undefined;
}
