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

/** The views of `nodes` and everything below them, built without recursion (trees may be deep). */
function nodeViews(store: CloudStore, nodes: NodeRecord[]): StateNode[] {
  const top: StateNode[] = [];
  const work: Array<{ node: NodeRecord; into: StateNode[] }> = nodes.map((node) => ({ node, into: top })).reverse();
  for (let item = work.pop(); item; item = work.pop()) {
    const { node } = item;
    const common = { id: node.id, tags: [...node.tags], metadata: { ...node.metadata } };
    if (node.kind === 'container') {
      const view = { ...common, container: node.name, children: [] as StateNode[] };
      item.into.push(view);
      const kids = store.childrenOf(node.id);
      for (let i = kids.length - 1; i >= 0; i--) work.push({ node: kids[i]!, into: view.children });
    } else {
      const { mimeType, bytes, version } = node;
      item.into.push({ ...common, file: node.name, mimeType, bytes, version, public: node.public });
    }
  }
  return top;
}

/** Every user's live tree, as JSON, for a test or a person to look at. */
export function stateView(store: CloudStore, scenario: string): StateView {
  const users: StateView['users'] = {};
  for (const user of store.users()) {
    const root = store.root(user);
    users[user] = {
      rootId: root.id,
      tree: nodeViews(store, store.children(user, root.id)),
      recycled: store.recycleBin.list(user).length,
      queues: queueViews(store, user),
    };
  }
  return { scenario, users };
}
