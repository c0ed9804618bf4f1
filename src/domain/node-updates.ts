import type { NodeRecord } from '../storage/schema.js';
import { conflict } from './errors.js';
import { checkName } from './names.js';
import { DEFAULT_MIME } from './node-records.js';
import type { StoreCore, WriteContext } from './store-core.js';

export interface NodeChanges {
  name?: string;
  public?: boolean;
  mimeType?: string;
  parentId?: string;
}

export interface UpdateOptions extends WriteContext {
  /** A live node at the new place to recycle in the same transaction (WebDAV MOVE with Overwrite: T). */
  replaceId?: string;
}

/**
 * A rename, a move, or a change of the public flag or MIME type, as one transaction. A rename or move
 * counts as removing the node from its place (for the locks) and takes no lock along (RFC 4918 7.7).
 */
export function updateNode(
  core: StoreCore,
  user: string,
  id: string,
  changes: NodeChanges,
  options: UpdateOptions = {},
): Promise<NodeRecord> {
  const tree = core.tree;
  return core.transact(() => {
    const node = core.liveNode(user, id);
    const name = changes.name !== undefined ? checkName(changes.name) : node.name;
    let parentId = node.parentId;
    if (changes.parentId !== undefined && changes.parentId !== node.parentId) {
      if (node.parentId === null) throw conflict('the root container cannot be moved');
      core.liveNode(user, changes.parentId, 'container');
      if (tree.isWithin(changes.parentId, node.id)) throw conflict('a container cannot be moved into itself');
      parentId = changes.parentId;
    }
    if (node.parentId === null && name !== node.name) throw conflict('the root container cannot be renamed');
    const moves = parentId !== null && (name !== node.name || parentId !== node.parentId);
    const replaced = options.replaceId ? core.liveNode(user, options.replaceId) : undefined;
    if (replaced && (replaced.parentId !== parentId || replaced.name.normalize('NFC') !== name))
      throw conflict('the node to overwrite is not at the destination');
    core.checkWrite(user, moves ? { remove: id, members: [parentId!] } : { content: id }, options);
    if (replaced) core.locks.assertCanWrite({ remove: replaced.id }, options.tokens);
    if (moves) core.assertFree(parentId!, name, replaced?.id ?? node.id);
    const now = core.now();
    const next: NodeRecord = {
      ...node,
      name,
      parentId,
      modified: now,
      version: moves ? node.version + 1 : node.version,
    };
    if (changes.public !== undefined) next.public = changes.public;
    if (changes.mimeType !== undefined && node.kind === 'file') next.mimeType = changes.mimeType || DEFAULT_MIME;
    const nodes = [next];
    if (replaced) nodes.unshift({ ...replaced, recycled: now });
    if (moves) {
      nodes.push(...core.touched(parentId!));
      if (node.parentId !== parentId) nodes.push(...core.touched(node.parentId!));
    }
    // A moved node does not take its locks along (RFC 4918 7.7).
    const release = (): (() => void) => {
      const released = core.locks.releaseWithin(id);
      return () => core.locks.restore(released);
    };
    return { change: { nodes }, result: next, after: moves ? release : undefined };
  });
}
