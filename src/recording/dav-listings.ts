import type { NodeKind } from '../domain/model.js';
import { DAV_NS, elementsOf, isDav, parseNamespacedXml, textContent, type XmlElement } from '../xml/namespaced.js';
import { davPath, destinationOf, under } from './dav-paths.js';
import type { Exchange } from './format.js';
import type { RecordedObject, RecordedTree } from './recorded-tree.js';

/** The id given to an object the recording shows only over WebDAV (it has no /v2 id there). */
const madeUpId = (n: number): string => `dav-${n}`;

/**
 * One login's WebDAV view while the walk goes: each live /dav path and the object there ('' is the root),
 * with each folder's child paths, so a MOVE, COPY or DELETE visits only the subtree it names.
 */
class DavAccount {
  private readonly at = new Map<string, string>();
  private readonly kids = new Map<string, Set<string>>();
  constructor(
    readonly user: string,
    readonly rootId: string,
  ) {
    this.at.set('', rootId);
  }
  get(path: string): string | undefined {
    return this.at.get(path);
  }
  set(path: string, id: string): void {
    this.at.set(path, id);
    if (path === '') return;
    const parent = parentOf(path);
    let kids = this.kids.get(parent);
    if (!kids) this.kids.set(parent, (kids = new Set()));
    kids.add(path);
  }
  /** Every live path at and under `path` with its object, parents before their children. */
  subtree(path: string): Array<[string, string]> {
    const out: Array<[string, string]> = [];
    const todo = this.at.has(path) ? [path] : [];
    while (todo.length) {
      const p = todo.pop()!;
      out.push([p, this.at.get(p)!]);
      for (const kid of this.kids.get(p) ?? []) todo.push(kid);
    }
    return out;
  }
  /** Takes the subtree at `path` out of the view (the root stays); returns what it held. */
  take(path: string): Array<[string, string]> {
    if (path === '') return [];
    const taken = this.subtree(path);
    for (const [p] of taken) {
      this.at.delete(p);
      this.kids.delete(p);
    }
    this.kids.get(parentOf(path))?.delete(path);
    return taken;
  }
}

/** Deeper or longer /dav paths than any real server serves are not read into the state (a file can hold any). */
const MAX_SEGMENTS = 256;
const MAX_PATH = 4096;

const parentOf = (path: string): string => path.slice(0, Math.max(0, path.lastIndexOf('/')));
const nameOf = (path: string): string => path.slice(path.lastIndexOf('/') + 1);
const readable = (path: string | undefined): path is string =>
  path !== undefined && path.length <= MAX_PATH && path.split('/').length <= MAX_SEGMENTS;

/**
 * What a recording's WebDAV exchanges show of each login's tree, walked in order: PROPFIND listings
 * (kind, size, type), GETs (contents), PUT and MKCOL, then COPY, MOVE and DELETE applied. Objects get
 * made-up ids and their parents by path; an object that moved keeps where it was first seen (`startPlace`).
 * Objects the /v2 exchanges already showed at the same path are the same object: merged into those.
 */
export function readDavExchanges(tree: RecordedTree, exchanges: readonly Exchange[]): void {
  const accounts = new Map<string, DavAccount>();
  let made = 0;
  const madeIds = new Set<string>();
  const nextId = (): string => {
    const id = madeUpId(++made);
    madeIds.add(id);
    return id;
  };
  const account = (user: string): DavAccount => {
    let a = accounts.get(user);
    if (!a) {
      a = new DavAccount(user, nextId());
      tree.objects.set(a.rootId, blank(a.rootId, 'container', user, null));
      accounts.set(user, a);
    }
    return a;
  };
  /** The object at `path`, made (with its missing parent folders) when the walk has not seen it. */
  const ensure = (a: DavAccount, path: string, kind: NodeKind): RecordedObject => {
    const known = a.get(path);
    const found = known === undefined ? undefined : tree.objects.get(known);
    if (found && (found.kind === kind || path === '')) return found;
    if (found) remove(a, path);
    const parent = ensure(a, parentOf(path), 'container');
    const o = blank(nextId(), kind, a.user, parent.id, nameOf(path));
    tree.objects.set(o.id, o);
    a.set(path, o.id);
    return o;
  };
  const remove = (a: DavAccount, path: string): void => {
    for (const [, id] of a.take(path)) tree.objects.get(id)!.deleted = true;
  };

  for (const e of exchanges) {
    const path = davPath(e.request.path);
    const status = e.response.status;
    if (!readable(path) || status >= 300) continue;
    const a = account(e.user ?? 'demo');
    const { method } = e.request;
    if (method === 'PROPFIND' && status === 207) {
      for (const r of listedResources(e.response.body)) {
        const o = ensure(a, r.path, r.kind);
        if (r.bytes !== undefined) o.bytes = r.bytes;
        if (r.mimeType !== undefined) o.mimeType = r.mimeType;
      }
    } else if (method === 'GET' && status === 200 && path !== '') ensure(a, path, 'file').content = e.response.body;
    else if (method === 'PUT' && path !== '') ensure(a, path, 'file').content = e.request.body;
    else if (method === 'MKCOL') ensure(a, path, 'container');
    else if (method === 'DELETE') remove(a, path);
    else if (method === 'COPY' || method === 'MOVE') {
      const to = destinationOf(e);
      if (!readable(to) || to === '' || path === '' || under(to, path)) continue;
      if (a.get(path) === undefined) ensure(a, path, 'file');
      remove(a, to);
      const parent = ensure(a, parentOf(to), 'container');
      if (method === 'MOVE') move(tree, a, path, to, parent.id);
      else copy(tree, a, path, to, nextId);
    }
  }
  if (accounts.size > 0) mergeIntoV2(tree, accounts, madeIds);
}

function blank(id: string, kind: NodeKind, user: string, parentId: string | null, name?: string): RecordedObject {
  return { id, kind, user, parentId, name, tags: [], metadata: {}, deleted: false };
}

/** The objects at and under `from` now live at `to`; the top one's first place is remembered. */
function move(tree: RecordedTree, a: DavAccount, from: string, to: string, parentId: string): void {
  for (const [p, id] of a.take(from)) a.set(to + p.slice(from.length), id);
  const top = tree.objects.get(a.get(to)!)!;
  top.startPlace ??= { name: top.name, parentId: top.parentId };
  top.name = nameOf(to);
  top.parentId = parentId;
}

/** New objects at and under `to`, each like its source (kind, size, type, content). */
function copy(tree: RecordedTree, a: DavAccount, from: string, to: string, nextId: () => string): void {
  for (const [p, id] of a.subtree(from)) {
    const place = to + p.slice(from.length);
    const parentId = a.get(parentOf(place))!;
    const o: RecordedObject = { ...tree.objects.get(id)!, id: nextId(), name: nameOf(place), parentId };
    o.tags = [];
    o.metadata = {};
    delete o.startPlace;
    tree.objects.set(o.id, o);
    a.set(place, o.id);
  }
}

/** What a 207 shows of one resource with its properties found (status 200). */
interface ListedResource {
  path: string;
  kind: NodeKind;
  bytes?: number;
  mimeType?: string;
}

/** The resources a PROPFIND's multistatus lists; nothing when the body is not one. */
function listedResources(body: Buffer): ListedResource[] {
  let root: XmlElement;
  try {
    root = parseNamespacedXml(body.toString('utf8'));
  } catch {
    return [];
  }
  if (!isDav(root, 'multistatus')) return [];
  const listed: ListedResource[] = [];
  for (const response of elementsOf(root).filter((el) => isDav(el, 'response'))) {
    const href = elementsOf(response).find((el) => isDav(el, 'href'));
    const path =
      href &&
      davPath(
        textContent(href)
          .trim()
          .replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, ''),
      );
    if (path === undefined) continue;
    const found = elementsOf(response)
      .filter((el) => isDav(el, 'propstat'))
      .filter((ps) => elementsOf(ps).some((el) => isDav(el, 'status') && / 200 /.test(` ${textContent(el)} `)))
      .flatMap((ps) => elementsOf(ps).filter((el) => isDav(el, 'prop')))
      .flatMap(elementsOf);
    const text = (local: string): string | undefined => {
      const prop = found.find((p) => p.ns === DAV_NS && p.local === local);
      return prop && textContent(prop).trim();
    };
    const type = found.find((p) => isDav(p, 'resourcetype'));
    const length = text('getcontentlength');
    // A response that says neither kind nor size (a PROPFIND for other properties) shows only that it exists.
    const kind: NodeKind = type && elementsOf(type).some((t) => isDav(t, 'collection')) ? 'container' : 'file';
    if (!type && length === undefined) continue;
    listed.push({
      path,
      kind,
      ...(kind === 'file' && length !== undefined && /^\d+$/.test(length) && { bytes: Number(length) }),
      ...(kind === 'file' && text('getcontenttype') && { mimeType: text('getcontenttype') }),
    });
  }
  return listed;
}

/**
 * Ties the WebDAV view to what /v2 showed: a login's WebDAV root is its root container (or stands for it when
 * the recording never read the entry document), and an object seen over WebDAV at the path of one /v2 showed
 * (by names from the root) is that object. Each one merged takes what only WebDAV knew (content, size, type).
 */
function mergeIntoV2(tree: RecordedTree, accounts: Map<string, DavAccount>, madeUp: ReadonlySet<string>): void {
  const into = new Map<string, string>();
  for (const a of accounts.values()) {
    const root = tree.roots.get(a.user);
    if (root === undefined) tree.roots.set(a.user, a.rootId);
    else into.set(a.rootId, root);
  }
  const v2 = v2Paths(tree, madeUp, new Set(accounts.keys()));
  for (const a of accounts.values()) {
    for (const [path, id] of a.subtree('')) {
      const same = path === '' ? undefined : v2.get(`${a.user}\n${path}`);
      if (same && tree.objects.get(same)?.kind === tree.objects.get(id)?.kind) into.set(id, same);
    }
  }
  if (into.size === 0) return;
  for (const [from, to] of into) {
    const gone = tree.objects.get(from)!;
    const kept = tree.objects.get(to)!;
    kept.content ??= gone.content;
    kept.bytes ??= gone.bytes;
    kept.mimeType ??= gone.mimeType;
    tree.objects.delete(from);
  }
  for (const o of tree.objects.values()) {
    if (o.parentId && into.has(o.parentId)) o.parentId = into.get(o.parentId)!;
    if (o.startPlace?.parentId && into.has(o.startPlace.parentId))
      o.startPlace.parentId = into.get(o.startPlace.parentId);
  }
}

/** "login\npath" -> id of each object /v2 showed with a known place; live ones win over deleted ones. */
function v2Paths(tree: RecordedTree, madeUp: ReadonlySet<string>, users: ReadonlySet<string>): Map<string, string> {
  const paths = new Map<string, string | undefined>();
  const pathOf = (o: RecordedObject): string | undefined => {
    // Walks up to the first place already known, then fills in the way back down (each object once).
    const way: RecordedObject[] = [];
    let at: RecordedObject | undefined = o;
    let above: string | undefined;
    while (at && !paths.has(at.id)) {
      if (at.parentId === null) {
        paths.set(at.id, '');
        break;
      }
      way.push(at);
      at = at.parentId && way.length <= MAX_SEGMENTS ? tree.objects.get(at.parentId) : undefined;
    }
    above = at ? paths.get(at.id) : undefined;
    for (const step of way.reverse()) {
      above = above === undefined || step.name === undefined ? undefined : above ? `${above}/${step.name}` : step.name;
      paths.set(step.id, above);
    }
    return paths.get(o.id);
  };
  const byPath = new Map<string, string>();
  const v2Objects = [...tree.objects.values()].filter((o) => users.has(o.user) && !madeUp.has(o.id));
  for (const o of [...v2Objects.filter((x) => x.deleted), ...v2Objects.filter((x) => !x.deleted)]) {
    const path = o.parentId === null ? undefined : pathOf(o);
    if (path !== undefined) byPath.set(`${o.user}\n${path.normalize('NFC')}`, o.id);
  }
  return byPath;
}
