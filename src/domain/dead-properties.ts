import type { CloudStore, WriteContext } from './cloud-store.js';

/** One PROPPATCH instruction on a dead property: set to serialised XML, or remove. */
export type DeadPropChange = { name: string; xml: string } | { name: string; remove: true };

/**
 * WebDAV dead properties, kept in NodeRecord.deadProps (Clark name -> the property element as
 * self-contained XML), so they persist with the node and travel with its moves and copies.
 * Changes apply in document order and all together (RFC 4918 9.2).
 */
export async function changeDeadProps(
  store: CloudStore,
  user: string,
  id: string,
  changes: DeadPropChange[],
  ctx?: WriteContext,
): Promise<void> {
  await store.changeDeadProps(user, id, changes, ctx);
}
