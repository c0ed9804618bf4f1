import { STORAGE_ALLOCATED } from '../domain/account.js';
import type { CloudStore } from '../domain/cloud-store.js';
import type { NodeRecord } from '../domain/model.js';
import type { AccountView, ContainerView, Page } from '../xml/entities.js';
import type { ItemView } from '../xml/entity-tags.js';

/** Builds the typed views the entity mappers take, from the store. */

const INT32_MAX = 2 ** 31 - 1;

/** At X-Cloud-Depth 2 an entity lists its metadata keys (as metadata-item links); below, none. */
export function metadataKeysAt(node: NodeRecord, depth: number): string[] | undefined {
  return depth >= 2 ? Object.keys(node.metadata).sort() : undefined;
}

export function itemView(store: CloudStore, node: NodeRecord, depth = 0): ItemView {
  return { node, bytes: store.bytesOf(node), metadataKeys: metadataKeysAt(node, depth) };
}

/** With `contents` (depth 2), the children inline, each with its metadata keys, and the container's own keys. */
export function containerView(store: CloudStore, node: NodeRecord, contents?: Page<NodeRecord>): ContainerView {
  const view: ContainerView = { node, bytes: store.bytesOf(node) };
  if (contents) {
    view.contents = { ...contents, items: contents.items.map((n) => itemView(store, n, 2)) };
    view.metadataKeys = metadataKeysAt(node, 2);
  }
  return view;
}

export function accountView(store: CloudStore, user: string): AccountView {
  return {
    username: user,
    allocated: Math.min(store.storageAllocated(user), INT32_MAX),
    used: Math.min(store.storedBytes(user), INT32_MAX),
    bandwidthAllocated: STORAGE_ALLOCATED,
  };
}
