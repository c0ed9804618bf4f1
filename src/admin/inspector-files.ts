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

/** Listings stop here; the page says how many more there are (a tree of any size stays cheap to show). */
export const MAX_LISTED = 500;

const iso = (unixSeconds: number): string => new Date(unixSeconds * 1000).toISOString();

function inspect(store: CloudStore, node: NodeRecord, davNames: string[] | null): InspectedNode {
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
    rest: `/v2/${node.kind === 'container' ? 'containers' : 'files'}/${node.id}`,
    dav: davNames ? davHref('/dav', davNames, node.kind === 'container') : null,
  };
  // Listed under a live container (checked once by the caller): the tree's own count, no ancestor walk per member.
  if (node.kind === 'container' && node.recycled === null) view.members = store.tree.children(node.id).length;
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

function limited(nodes: NodeRecord[], view: (n: NodeRecord) => InspectedNode): Listing {
  return { nodes: nodes.slice(0, MAX_LISTED).map(view), more: Math.max(0, nodes.length - MAX_LISTED) };
}

export function inspectUsers(store: CloudStore): InspectedUser[] {
  return store.users().map((user) => {
    const root = store.root(user);
    return {
      user,
      rootId: root.id,
      members: store.children(user, root.id).length,
      recycled: store.recycleBin.list(user).length,
      queues: queueViews(store, user),
    };
  });
}

/** A container's members, containers first, then by name. */
export function inspectChildren(store: CloudStore, user: string, containerId: string): Listing {
  return found(() => {
    const container = store.get(user, containerId, 'container');
    // One walk up from the container, linear in its depth (not a lookup of every ancestor from the root).
    const base = store.tree.pathNames(container.id);
    const members = [...store.children(user, container.id)].sort((a, b) =>
      a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'container' ? -1 : 1,
    );
    return limited(members, (n) => inspect(store, n, [...base, n.name]));
  });
}

/** The user's recycle bin, most recently recycled first. */
export function inspectRecycleBin(store: CloudStore, user: string): Listing {
  return found(() => {
    store.root(user);
    return limited(store.recycleBin.list(user), (n) => inspect(store, n, null));
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
