import type { NodeRecord } from '../storage/schema.js';
import { plainDict } from './record-values.js';
import type { StoreCore, WriteContext } from './store-core.js';

/** One PROPPATCH instruction on a dead property: set to serialised XML, or remove. */
export type DeadPropChange = { name: string; xml: string } | { name: string; remove: true };

/**
 * WebDAV dead properties, kept in NodeRecord.deadProps (Clark name -> the property element as
 * self-contained XML), so they persist with the node and travel with its moves and copies.
 * Changes apply in document order and all together (RFC 4918 9.2).
 */
export function changeDeadProps(
  core: StoreCore,
  user: string,
  id: string,
  changes: DeadPropChange[],
  ctx?: WriteContext,
): Promise<NodeRecord> {
  return core.transact(() => {
    const node = core.liveNode(user, id);
    core.checkWrite(user, { content: id }, ctx);
    const deadProps = plainDict(node.deadProps);
    for (const change of changes) {
      if ('remove' in change) delete deadProps[change.name];
      else deadProps[change.name] = change.xml;
    }
    const next = { ...node, deadProps };
    return { change: { nodes: [next] }, result: next };
  });
}
