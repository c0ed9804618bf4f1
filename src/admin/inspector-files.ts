import type { CloudStore } from '../domain/cloud-store.js';
import { DomainError } from '../domain/errors.js';
import { davHref } from '../dav/paths.js';
import { HttpError } from '../http/errors.js';
import type { NodeRecord } from '../domain/model.js';
import type { InspectedLock, InspectedNode, InspectedUser, Listing } from '../http/wire-types.js';
import { queueViews } from './state-view.js';

export type { InspectedLock, InspectedNode, InspectedUser, Listing };

/**
 * The inspector's one reader of the store: every call goes through the store's public operations
 * (users, root, get, children, tree, recycleBin, locks), so the store's internals can change beneath it.
 */

/**
 * A listing shows at most this many members; the page asks for the next ones from `next` (a folder of
 * any size stays cheap to show, a page at a time).
 */
export const MAX_LISTED = 200;

const iso = (unixSeconds: number): string => new Date(unixSeconds * 1000).toISOString();

function inspect(store: CloudStore, node: NodeRecord, davNames: string[] | null, mountPath: string): InspectedNode {
  const locks = node.recycled === null ? store.locks.covering(node.id) : [];
  const view: InspectedNode = {
    id: node.id,
    kind: node.kind,
    name: node.name,
    bytes: node.bytes,
    version: node.version,
    created: iso(node.created),
    modified: iso(node.modified),
    mimeType: node.mimeType,
    public: node.public,
    tags: [...node.tags],
    metadata: { ...node.metadata },
    locks: locks.map((l) => ({
      scope: l.scope,
      depth: l.depth,
      direct: l.rootId === node.id,
      owner: l.ownerXml,
      expires: Number.isFinite(l.expires) ? new Date(l.expires).toISOString() : null,
    })),
    rest: `${mountPath}/v2/${node.kind === 'container' ? 'containers' : 'files'}/${node.id}`,
    dav: davNames ? davHref(`${mountPath}/dav`, davNames, node.kind === 'container') : null,
  };
  // Listed under a live container (checked once by the caller): a count of live children, no ancestor walk, no sort.
  if (node.kind === 'container' && node.recycled === null) view.members = store.childCount(node.id);
  if (node.recycled !== null) view.recycled = iso(node.recycled);
  return view;
}

/** Turns the store's "no such user or node" into a 404 for the page. */
function found<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof DomainError) throw new HttpError(404, err.message);
    throw err;
  }
}

/** `page`, the members from `start` of `total`, as a listing: at most MAX_LISTED, how many follow, where the next page starts. */
function limited(
  page: readonly NodeRecord[],
  start: number,
  total: number,
  view: (n: NodeRecord) => InspectedNode,
): Listing {
  const end = Math.min(total, start + MAX_LISTED);
  const more = Math.max(0, total - Math.max(start, end));
  return { nodes: page.slice(0, MAX_LISTED).map(view), start, more, next: more > 0 ? end : null };
}

export function inspectUsers(store: CloudStore): InspectedUser[] {
  return store.tree.users().map((user) => {
    const root = store.root(user);
    return {
      user,
      rootId: root.id,
      members: store.childCount(root.id),
      recycled: store.recycleBin.list(user).length,
      queues: queueViews(store, user),
    };
  });
}

/** A page of a container's members from `start`, in listing order (containers first, then by name ignoring case). */
export async function inspectChildren(
  store: CloudStore,
  user: string,
  containerId: string,
  start = 0,
  mountPath = '',
): Promise<Listing> {
  const members = found(() => store.listing(user, containerId));
  // One walk up from the container, linear in its depth (not a lookup of every ancestor from the root).
  const base = store.tree.pathNames(containerId);
  const page = await members.range(start, start + MAX_LISTED);
  return limited(page, start, members.length, (n) => inspect(store, n, [...base, n.name], mountPath));
}

/** The user's recycle bin, most recently recycled first. */
export function inspectRecycleBin(store: CloudStore, user: string, mountPath = ''): Listing {
  return found(() => {
    store.root(user);
    const recycled = store.recycleBin.list(user);
    return limited(recycled, 0, recycled.length, (n) => inspect(store, n, null, mountPath));
  });
}

function liveOrUndefined(read: () => NodeRecord): NodeRecord | undefined {
  try {
    return read();
  } catch (err) {
    if (err instanceof DomainError) return undefined;
    throw err;
  }
}

/** A file, live or recycled, whose content the page may download or preview. */
export function fileForContent(store: CloudStore, user: string, id: string): NodeRecord {
  return found(() => {
    const node = liveOrUndefined(() => store.get(user, id)) ?? store.recycleBin.item(user, id);
    if (node.kind !== 'file') throw new HttpError(400, `${id} is a container, not a file`);
    return node;
  });
}
