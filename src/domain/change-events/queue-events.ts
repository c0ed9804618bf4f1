import type { ChangeSet } from '../../storage/persistence.js';
import { queueKey, type ChangeEvent, type QueueRecord, type QueueValue } from '../../storage/queue-records.js';
import type { Tree } from '../tree.js';
import { eventsOf } from './change-events.js';

/** The path an event's parent has in a scope: "/" for the root's children, "/a/b/" below a/b. */
export const scopePathOf = (parentPath: readonly string[]): string =>
  `/${parentPath.map((name) => `${name}/`).join('')}`;

/** True when `queue` takes `event`: its owner's, an event type it asked for, inside its scope. */
function queueTakes(queue: QueueRecord, event: ChangeEvent): boolean {
  if (queue.owner !== event.user) return false;
  if (queue.events.length > 0 && !queue.events.includes(event.event)) return false;
  if (queue.scope === null) return true;
  const path = scopePathOf(event.parentPath);
  return queue.scope.some((prefix) => path.startsWith(prefix));
}

/**
 * The change set with its events appended to every queue that takes them, numbered on from each
 * queue's last value. Called as each change is staged (in commit order), against the tree before it,
 * so the events are durable with the change and undone with it. Without queues the change is as it was.
 */
export function withQueueEvents(tree: Tree, change: ChangeSet, now: number): ChangeSet {
  if (tree.queues.size === 0 || (!change.nodes?.length && !change.removed?.length && !change.tags?.length))
    return change;
  const appends = new Map<string, { queue: QueueRecord; values: QueueValue[] }>();
  for (const event of eventsOf(tree, change, now)) {
    for (const queue of tree.queues.ofOwner(event.user)) {
      if (!queueTakes(queue, event)) continue;
      const key = queueKey(queue.owner, queue.name);
      let entry = appends.get(key);
      if (!entry) appends.set(key, (entry = { queue, values: [] }));
      entry.values.push({ seq: queue.next + entry.values.length, event });
    }
  }
  if (appends.size === 0) return change;
  const queues = [...appends].map(([key, { values }]) => ({ key, append: values }));
  return { ...change, queues: [...(change.queues ?? []), ...queues] };
}
