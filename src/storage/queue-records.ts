/**
 * Notification queues as stored: one record per queue, its values numbered in the order they were
 * appended. Queue changes travel in change sets like node changes, so a queue and the change it
 * reports become durable together, in commit order.
 */

/** One change to the store as a queue reports it (the route layer renders it as CDMI JSON). */
export interface ChangeEvent {
  event: 'cdmi_create_complete' | 'cdmi_modify_complete' | 'cdmi_delete' | 'cdmi_rename';
  /** Unix seconds. */
  time: number;
  user: string;
  objectId: string;
  name: string;
  kind: 'container' | 'file';
  parentId: string | null;
  /** Names from below the root down to the parent (the root's children have none). */
  parentPath: string[];
  bytes: number;
  /** An opaque tag that changes with the content (files); '' for containers. */
  contentTag: string;
}

export interface QueueValue {
  seq: number;
  event: ChangeEvent;
}

export interface QueueRecord {
  owner: string;
  name: string;
  id: string;
  /** Unix seconds. */
  created: number;
  /** cdmi_notification_events: the event names the queue takes. */
  events: string[];
  /** Path prefixes ("/" the whole tree, "/a/b/" below a/b) an event's parent must start with; null: no scope given. */
  scope: string[] | null;
  /** The creating document's metadata, shown back on a read. */
  metadata: Record<string, unknown>;
  /** The most values kept; past it the oldest are dropped (and counted in `dropped`). */
  limit: number;
  /** The number the next value gets. */
  next: number;
  /** Values dropped unread because the queue was full. */
  dropped: number;
  /** Oldest first. */
  values: QueueValue[];
}

/** One change to one queue. `take` removes every value numbered below it (what a reader acknowledged). */
export type QueueChange =
  | { key: string; put: QueueRecord }
  | { key: string; drop: true }
  | { key: string; append: QueueValue[] }
  | { key: string; take: number };

/**
 * The queue after `change` (undefined: no queue). Records are never changed in place, so a record
 * kept for undo stays as it was. Applying a change twice does no harm: appends skip numbers already
 * taken, `take` is a bound.
 */
export function nextQueueRecord(prev: QueueRecord | undefined, change: QueueChange): QueueRecord | undefined {
  if ('put' in change) return change.put;
  if ('drop' in change) return undefined;
  if (!prev) return undefined;
  if ('append' in change) {
    const fresh = change.append.filter((v) => v.seq >= prev.next);
    if (fresh.length === 0) return prev;
    const all = prev.values.concat(fresh);
    const over = Math.max(0, all.length - prev.limit);
    return {
      ...prev,
      values: over > 0 ? all.slice(over) : all,
      next: fresh[fresh.length - 1]!.seq + 1,
      dropped: prev.dropped + over,
    };
  }
  const from = prev.values.findIndex((v) => v.seq >= change.take);
  const values = from === -1 ? [] : prev.values.slice(from);
  return values.length === prev.values.length ? prev : { ...prev, values };
}

/** Applies queue changes to a plain map of records (null-prototype: keys hold user-given names). */
export function applyQueueChanges(queues: Record<string, QueueRecord>, changes: readonly QueueChange[]): void {
  for (const change of changes) {
    const next = nextQueueRecord(queues[change.key], change);
    if (next) queues[change.key] = next;
    else delete queues[change.key];
  }
}

/** The key of a queue in the state: owner and name, each percent-encoded, so the pair reads back unambiguously. */
export const queueKey = (owner: string, name: string): string =>
  `${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
