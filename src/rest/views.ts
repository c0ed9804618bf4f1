import { STORAGE_ALLOCATED } from '../domain/account.js';
import type { CloudStore } from '../domain/cloud-store.js';
import type { NodeRecord } from '../storage/schema.js';
import type { AccountView, ContainerView, ItemView, Page } from '../xml/entities.js';

/** Builds the typed views the entity mappers take, from the store. */

const INT32_MAX = 2 ** 31 - 1;

export function itemView(store: CloudStore, node: NodeRecord): ItemView {
  return { node, bytes: node.kind === 'container' ? store.tree.subtreeBytes(node.id) : node.bytes };
}

export function containerView(store: CloudStore, node: NodeRecord, contents?: Page<NodeRecord>): ContainerView {
  const view: ContainerView = { node, bytes: store.tree.subtreeBytes(node.id) };
  if (contents) view.contents = { ...contents, items: contents.items.map((n) => itemView(store, n)) };
  return view;
}

export function accountView(store: CloudStore, user: string): AccountView {
  return {
    username: user,
    allocated: STORAGE_ALLOCATED,
    used: Math.min(store.storedBytes(user), INT32_MAX),
    bandwidthAllocated: STORAGE_ALLOCATED,
  };
}
