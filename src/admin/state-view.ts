import type { CloudStore } from '../domain/cloud-store.js';
import type { NodeRecord } from '../storage/schema.js';

/** A node as GET /__admin/state shows it: the seed format (container/file) plus ids and sizes. */
export type StateNode =
  | { id: string; container: string; tags: string[]; metadata: Record<string, string>; children: StateNode[] }
  | { id: string; file: string; mimeType: string; bytes: number; version: number; public: boolean; tags: string[]; metadata: Record<string, string> };

export interface StateView {
  scenario: string;
  users: Record<string, { rootId: string; tree: StateNode[]; recycled: number }>;
}

function nodeView(store: CloudStore, node: NodeRecord): StateNode {
  const common = { id: node.id, tags: [...node.tags], metadata: { ...node.metadata } };
  if (node.kind === 'container') {
    return { ...common, container: node.name, children: store.tree.children(node.id).map((n) => nodeView(store, n)) };
  }
  const { mimeType, bytes, version } = node;
  return { ...common, file: node.name, mimeType, bytes, version, public: node.public };
}

/** Every user's live tree, as JSON, for a test or a person to look at. */
export function stateView(store: CloudStore, scenario: string): StateView {
  const users: StateView['users'] = {};
  for (const user of store.users()) {
    const root = store.root(user);
    users[user] = {
      rootId: root.id,
      tree: store.tree.children(root.id).map((n) => nodeView(store, n)),
      recycled: store.recycleBin.list(user).length,
    };
  }
  return { scenario, users };
}
