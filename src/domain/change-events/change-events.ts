import type { ChangeSet } from '../../storage/persistence.js';
import type { ChangeEvent } from '../../storage/queue-records.js';
import type { NodeRecord } from '../../storage/schema.js';
import type { Tree } from '../tree.js';

/**
 * The events one change set reports, read against the tree before it is applied: one per object the
 * user would see change, never one per descendant. A folder created, copied, restored, deleted,
 * renamed or moved is one event for the folder (a reader fetches what is inside through the folder);
 * a record whose only difference is a time (a parent's modified date, an access) reports nothing.
 * Order inside one change: deletions, renames and moves, creations, modifications, so a move that
 * replaces an object reads as "the old one went, this one came".
 */
export function eventsOf(tree: Tree, change: ChangeSet, now: number): ChangeEvent[] {
  const changed = new Map<string, NodeRecord>();
  for (const node of change.nodes ?? []) changed.set(node.id, node);
  const removed = new Set(change.removed ?? []);
  const after = (id: string): NodeRecord | undefined =>
    removed.has(id) ? undefined : (changed.get(id) ?? tree.node(id));
  const liveBefore = (id: string | null): boolean => {
    const node = id === null ? undefined : tree.node(id);
    return node !== undefined && tree.isLive(node);
  };
  const liveAfter = (node: NodeRecord): boolean => {
    for (let n: NodeRecord | undefined = node; n; n = n.parentId === null ? undefined : after(n.parentId)) {
      if (n.recycled !== null) return false;
    }
    return true;
  };
  const pathAfter = (id: string | null): string[] => {
    const names: string[] = [];
    for (let n = id === null ? undefined : after(id); n && n.parentId !== null; n = after(n.parentId))
      names.push(n.name);
    return names.reverse();
  };
  const pathBefore = (id: string | null): string[] => (id === null ? [] : tree.pathNames(id));
  const event = (type: ChangeEvent['event'], node: NodeRecord, parentPath: string[]): ChangeEvent => ({
    event: type,
    time: now,
    user: node.owner,
    objectId: node.id,
    name: node.name,
    kind: node.kind,
    parentId: node.parentId,
    parentPath,
    bytes: node.kind === 'file' ? node.bytes : 0,
    contentTag: node.kind === 'file' ? (node.blobId ?? '') : '',
  });

  const deletes: ChangeEvent[] = [];
  const renames: ChangeEvent[] = [];
  const creates: ChangeEvent[] = [];
  const modifies: ChangeEvent[] = [];
  for (const node of changed.values()) {
    if (node.parentId === null || removed.has(node.id)) continue;
    const before = tree.node(node.id);
    const was = before !== undefined && tree.isLive(before);
    const is = liveAfter(node);
    if (was && !is) {
      // Only the top of what goes: a node whose parent went in the same change went with it.
      const parent = before.parentId === null ? undefined : after(before.parentId);
      if (parent && liveAfter(parent)) deletes.push(event('cdmi_delete', before, pathBefore(before.parentId)));
    } else if (!was && is) {
      // Only the top of what came: a node whose parent came in the same change came with it.
      if (liveBefore(node.parentId)) creates.push(event('cdmi_create_complete', node, pathAfter(node.parentId)));
    } else if (was && is) {
      if (before.name !== node.name || before.parentId !== node.parentId) {
        renames.push(event('cdmi_rename', node, pathAfter(node.parentId)));
      } else if (contentOrFieldsDiffer(before, node)) {
        modifies.push(event('cdmi_modify_complete', node, pathAfter(node.parentId)));
      }
    }
  }
  // A tag change is a modification of its node (reported once, and not again beside its whole record).
  const tagged = new Set<string>();
  for (const t of change.tags ?? []) {
    const node = tree.node(t.id);
    if (!node || changed.has(node.id) || removed.has(node.id) || tagged.has(node.id)) continue;
    const has = tree.tags.has(node.owner, 'add' in t ? t.add : t.remove, node.id);
    if (has === 'add' in t || node.parentId === null || !tree.isLive(node)) continue;
    tagged.add(node.id);
    modifies.push(event('cdmi_modify_complete', node, pathAfter(node.parentId)));
  }
  for (const id of removed) {
    const before = tree.node(id);
    if (!before || before.parentId === null || !tree.isLive(before)) continue;
    if (!removed.has(before.parentId)) deletes.push(event('cdmi_delete', before, pathBefore(before.parentId)));
  }
  return [...deletes, ...renames, ...creates, ...modifies];
}

/** A change a reader would notice: content, type, sharing, tags, metadata or properties; not a time. */
function contentOrFieldsDiffer(a: NodeRecord, b: NodeRecord): boolean {
  return (
    a.version !== b.version ||
    a.bytes !== b.bytes ||
    a.blobId !== b.blobId ||
    a.mimeType !== b.mimeType ||
    a.public !== b.public ||
    !sameJson(a.tags, b.tags) ||
    !sameJson(a.metadata, b.metadata) ||
    !sameJson(a.deadProps, b.deadProps)
  );
}

const sameJson = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);
