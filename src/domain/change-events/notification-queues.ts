import { randomUUID } from 'node:crypto';
import { queueKey, type QueueRecord } from '../../storage/queue-records.js';
import { conflict, DomainError, invalid, notFound } from '../errors.js';
import type { StoreCore } from '../store-core.js';

/** What a notification queue is created with (the routes read it from the CDMI document). */
export interface QueueSpec {
  events: string[];
  scope: string[] | null;
  metadata: Record<string, unknown>;
}

/** Values a queue keeps unread before it drops its oldest (configurable per mock). */
const DEFAULT_QUEUE_LIMIT = 10_000;

/**
 * Queues one user may have. The sync client makes one per device ("<MAC>-<user>"); every event is
 * copied into every queue that takes it, so this bounds what one write adds to the state (16 events)
 * and what one user's queues hold (16 x the queue limit).
 */
const MAX_QUEUES_PER_USER = 16;

/** Why `name` cannot name a queue, or undefined: it is one segment of /cdmi/<user>/<queue>. */
function queueNameProblem(name: string): string | undefined {
  const rule = 'a queue name is one path segment: 1 to 255 characters, no "/" or control characters, not "." or ".."';
  if (name.length === 0 || name.length > 255 || /[/\u0000-\u001f\u007f]/.test(name) || name === '.' || name === '..')
    return `${JSON.stringify(name)} is not a queue name: ${rule}`;
  return undefined;
}

/**
 * CDMI notification queues, per user: create, read, acknowledge (drop the oldest n), delete. Each
 * change is a transaction like any other (durable through the store's log, part of its state); the
 * values themselves are appended by the store as it stages each change (queue-events.ts).
 */
export class NotificationQueues {
  readonly #core: StoreCore;
  /** The most values a queue created from now on keeps. */
  limit = DEFAULT_QUEUE_LIMIT;

  constructor(core: StoreCore) {
    this.#core = core;
  }

  list(owner: string): QueueRecord[] {
    return this.#core.tree.queues.ofOwner(owner);
  }

  /** Every queue of every user (the admin state view). */
  all(): QueueRecord[] {
    return this.#core.tree.queues.all();
  }

  get(owner: string, name: string): QueueRecord {
    const queue = this.#core.tree.queues.get(owner, name);
    if (!queue) throw notFound('queue', `no queue named "${name}"`);
    return queue;
  }

  /**
   * Creates the queue; it takes the events of changes committed after it. An existing queue with the
   * same specification is left as it is (created: false); one with another is refused (CDMI forbids
   * changing a notification queue's metadata).
   */
  async create(owner: string, name: string, spec: QueueSpec): Promise<{ queue: QueueRecord; created: boolean }> {
    return this.#core.transact<{ queue: QueueRecord; created: boolean }>(() => {
      const existing = this.#core.tree.queues.get(owner, name);
      if (existing) {
        if (JSON.stringify(existing.metadata) !== JSON.stringify(spec.metadata)) {
          throw new DomainError(
            'conflict',
            `queue "${name}" exists with other notification metadata, which cannot change: delete it first`,
          );
        }
        return { result: { queue: existing, created: false } };
      }
      const problem = queueNameProblem(name);
      if (problem) throw invalid(problem);
      if (this.#core.tree.queues.countOf(owner) >= MAX_QUEUES_PER_USER) {
        throw conflict(
          `user "${owner}" has ${MAX_QUEUES_PER_USER} notification queues, the most one user may have: delete one first`,
        );
      }
      const queue: QueueRecord = {
        owner,
        name,
        id: randomUUID().replace(/-/g, '').toUpperCase(),
        created: this.#core.now(),
        events: spec.events,
        scope: spec.scope,
        metadata: spec.metadata,
        limit: this.limit,
        next: 0,
        dropped: 0,
        values: [],
      };
      return { change: { queues: [{ key: queueKey(owner, name), put: queue }] }, result: { queue, created: true } };
    });
  }

  /** Drops the oldest `count` values (what the reader has dealt with); fewer when fewer are there. */
  async acknowledge(owner: string, name: string, count: number): Promise<QueueRecord> {
    return this.#core.transact(() => {
      const queue = this.get(owner, name);
      const last = queue.values[Math.min(count, queue.values.length) - 1];
      if (!last) return { result: queue };
      return { change: { queues: [{ key: queueKey(owner, name), take: last.seq + 1 }] }, result: queue };
    });
  }

  async delete(owner: string, name: string): Promise<void> {
    await this.#core.transact(() => {
      this.get(owner, name);
      return { change: { queues: [{ key: queueKey(owner, name), drop: true as const }] }, result: undefined };
    });
  }
}
