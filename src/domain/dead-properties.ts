import type { CloudStore } from './cloud-store.js';

/** One PROPPATCH instruction on a dead property: set to serialised XML, or remove. */
export type DeadPropChange = { name: string; xml: string } | { name: string; remove: true };

/**
 * WebDAV dead properties, kept in NodeRecord.deadProps (Clark name -> the property element as
 * self-contained XML), so they persist with the node and travel with its moves and copies.
 * Changes apply in document order and all together (RFC 4918 9.2).
 */
export async function changeDeadProps(store: CloudStore, user: string, id: string, changes: DeadPropChange[]): Promise<void> {
  const node = store.get(user, id);
  const next = { ...node.deadProps };
  for (const change of changes) {
    if ('remove' in change) delete next[change.name];
    else next[change.name] = change.xml;
  }
  node.deadProps = next;
  await store.persist();
}

/** Replaces a node's dead properties with another's (a Depth 0 collection copy keeps them). */
export async function copyDeadProps(store: CloudStore, user: string, fromId: string, toId: string): Promise<void> {
  store.get(user, toId).deadProps = { ...store.get(user, fromId).deadProps };
  await store.persist();
}
