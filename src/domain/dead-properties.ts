import type { NodeRecord } from '../storage/schema.js';
import { DomainError } from './errors.js';
import { plainDict } from './record-values.js';
import type { StoreCore, WriteContext } from './store-core.js';

/** Dead properties one node may hold (inferred: the service has none; far above what a client stores). */
export const MAX_DEAD_PROPS = 1_000;
/** Their total size (names and serialised values) on one node. */
export const MAX_DEAD_PROP_BYTES = 256 * 1024;

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
    const before = sizeOf(deadProps);
    for (const change of changes) {
      if ('remove' in change) delete deadProps[change.name];
      else deadProps[change.name] = change.xml;
    }
    // A change that grows past a bound is refused whole; one that shrinks a node already past it is not.
    const after = sizeOf(deadProps);
    if (after.count > MAX_DEAD_PROPS && after.count > before.count)
      throw new DomainError('full', `a resource holds at most ${MAX_DEAD_PROPS} dead properties`);
    if (after.bytes > MAX_DEAD_PROP_BYTES && after.bytes > before.bytes)
      throw new DomainError('full', `a resource's dead properties hold at most ${MAX_DEAD_PROP_BYTES} bytes`);
    const next = { ...node, deadProps };
    return { change: { nodes: [next] }, result: next };
  });
}

function sizeOf(props: Record<string, string>): { count: number; bytes: number } {
  let count = 0;
  let bytes = 0;
  for (const [name, xml] of Object.entries(props)) {
    count++;
    bytes += name.length + xml.length;
  }
  return { count, bytes };
}
