import type { ActiveLock, LockRequest } from './locks.js';
import { checkName } from './names.js';
import { DEFAULT_MIME, newNode } from './node-records.js';
import type { StoreCore, WriteContext } from './store-core.js';

/** What a LOCK addresses: an existing node, or an unmapped name in a container. */
export type LockTarget = { nodeId: string } | { parentId: string; name: string };

/**
 * Grants a lock. On an unmapped name the conflicts are checked first and the empty file is created
 * in the same transaction as the lock, so a refused LOCK leaves nothing behind (RFC 4918 9.10.4).
 */
export function takeLock(
  core: StoreCore,
  user: string,
  target: LockTarget,
  request: Omit<LockRequest, 'rootId' | 'owner'>,
  ctx?: WriteContext,
): Promise<{ lock: ActiveLock; created: boolean }> {
  let granted: ActiveLock | undefined;
  const grant = (rootId: string, kind: 'container' | 'file') => (): (() => void) => {
    const lock = core.locks.add({ ...request, rootId, owner: user, depth: kind === 'file' ? '0' : request.depth });
    granted = lock;
    return () => core.locks.remove(lock);
  };
  return core
    .transact(() => {
      if ('nodeId' in target) {
        const node = core.liveNode(user, target.nodeId);
        ctx?.precondition?.();
        core.locks.assertCanLock(node.id, node.parentId ?? node.id, {
          scope: request.scope,
          depth: node.kind === 'file' ? '0' : request.depth,
        });
        return { result: false, after: grant(node.id, node.kind) };
      }
      core.liveNode(user, target.parentId, 'container');
      const name = checkName(target.name);
      core.checkWrite(user, { members: [target.parentId] }, ctx);
      core.assertFree(target.parentId, name);
      core.locks.assertCanLock(undefined, target.parentId, { scope: request.scope, depth: '0' });
      const file = { ...newNode(user, 'file', name, target.parentId, core.now()), mimeType: DEFAULT_MIME };
      return {
        change: { nodes: [file, ...core.touched(target.parentId)] },
        result: true,
        after: grant(file.id, 'file'),
      };
    })
    .then((created) => ({ lock: granted!, created }));
}
