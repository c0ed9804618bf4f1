import type { CloudStore } from '../domain/cloud-store.js';
import type { NodeRecord } from '../domain/model.js';
import type { InspectedQueue } from '../http/wire-types.js';

/** A node as GET /__admin/state shows it: the seed format (container/file) plus ids and sizes. */
export type StateNode =
  | { id: string; container: string; tags: string[]; metadata: Record<string, string>; children: StateNode[] }
  | {
      id: string;
      file: string;
      mimeType: string;
      bytes: number;
      version: number;
      public: boolean;
      tags: string[];
      metadata: Record<string, string>;
    };

/** A CDMI notification queue as GET /__admin/state shows it: its range and counts, not its values. */
export type QueueView = InspectedQueue;

/** The user's notification queues, as the state view and the inspector show them. */
export function queueViews(store: CloudStore, user: string): QueueView[] {
  return store.notificationQueues.list(user).map((q) => ({
    name: q.name,
    queueValues: q.values.length ? `${q.values[0]!.seq}-${q.values[q.values.length - 1]!.seq}` : '',
    values: q.values.length,
    dropped: q.dropped,
    limit: q.limit,
    events: [...q.events],
  }));
}

export interface StateView {
  scenario: string;
  users: Record<string, { rootId: string; tree: StateNode[]; recycled: number; queues: QueueView[] }>;
}

/**
 * `make` applied to `nodes` and everything below them, breadth first and without recursion (trees may be
 * deep): a container's children are queued together, in order, so each list of `children` (undefined
 * when there are none) fills in order.
 */
export function mapTree<V>(
  store: CloudStore,
  nodes: NodeRecord[],
  make: (node: NodeRecord, children: V[] | undefined) => V,
): V[] {
  const top: V[] = [];
  const work: Array<{ node: NodeRecord; into: V[] }> = nodes.map((node) => ({ node, into: top }));
  for (let i = 0; i < work.length; i++) {
    const { node, into } = work[i]!;
    const kids = node.kind === 'container' ? store.tree.children(node.id) : [];
    const children: V[] | undefined = kids.length > 0 ? [] : undefined;
    into.push(make(node, children));
    for (const kid of kids) work.push({ node: kid, into: children! });
  }
  return top;
}

function nodeView(node: NodeRecord, children: StateNode[] | undefined): StateNode {
  const common = { id: node.id, tags: [...node.tags], metadata: { ...node.metadata } };
  if (node.kind === 'container') return { ...common, container: node.name, children: children ?? [] };
  const { mimeType, bytes, version } = node;
  return { ...common, file: node.name, mimeType, bytes, version, public: node.public };
}

/** Every user's live tree, as JSON, for a test or a person to look at. */
export function stateView(store: CloudStore, scenario: string): StateView {
  const users: StateView['users'] = {};
  for (const user of store.tree.users()) {
    const root = store.root(user);
    users[user] = {
      rootId: root.id,
      tree: mapTree(store, store.tree.children(root.id), nodeView),
      recycled: store.recycleBin.list(user).length,
      queues: queueViews(store, user),
    };
  }
  return { scenario, users };
}
