import { nextQueueRecord, queueKey, type QueueChange, type QueueRecord } from '../../storage/queue-records.js';

/**
 * The notification queues in memory, part of the tree's state: loaded and saved with it, changed only
 * by change sets (so a queue's values are durable with the changes they report, and undone with them).
 */
export class QueueBook {
  readonly #queues = new Map<string, QueueRecord>();
  /** Owner -> keys of their queues: a change looks up its owner's queues without a scan. */
  readonly #byOwner = new Map<string, Set<string>>();

  load(queues: Record<string, QueueRecord> | undefined): void {
    this.#queues.clear();
    this.#byOwner.clear();
    for (const key of Object.keys(queues ?? {})) this.#set(key, queues![key]!);
  }

  /** The queues as a plain document (null-prototype), or undefined when there are none. */
  toState(): Record<string, QueueRecord> | undefined {
    if (this.#queues.size === 0) return undefined;
    const out = Object.create(null) as Record<string, QueueRecord>;
    for (const [key, queue] of this.#queues) out[key] = queue;
    return out;
  }

  get size(): number {
    return this.#queues.size;
  }

  get(owner: string, name: string): QueueRecord | undefined {
    return this.#queues.get(queueKey(owner, name));
  }

  /** How many queues the owner has. */
  countOf(owner: string): number {
    return this.#byOwner.get(owner)?.size ?? 0;
  }

  /** The owner's queues, in the order they were created. */
  ofOwner(owner: string): QueueRecord[] {
    return [...(this.#byOwner.get(owner) ?? [])].map((key) => this.#queues.get(key)!);
  }

  all(): QueueRecord[] {
    return [...this.#queues.values()];
  }

  /** What undoes `changes`: each queue they touch as it is now (records are never changed in place). */
  undoOf(changes: readonly QueueChange[]): QueueChange[] {
    const undo: QueueChange[] = [];
    const seen = new Set<string>();
    for (const { key } of changes) {
      if (seen.has(key)) continue;
      seen.add(key);
      const before = this.#queues.get(key);
      undo.push(before ? { key, put: before } : { key, drop: true });
    }
    return undo;
  }

  apply(changes: readonly QueueChange[]): void {
    for (const change of changes) {
      const next = nextQueueRecord(this.#queues.get(change.key), change);
      if (next) this.#set(change.key, next);
      else this.#delete(change.key);
    }
  }

  #set(key: string, queue: QueueRecord): void {
    this.#queues.set(key, queue);
    let keys = this.#byOwner.get(queue.owner);
    if (!keys) this.#byOwner.set(queue.owner, (keys = new Set()));
    keys.add(key);
  }

  #delete(key: string): void {
    const queue = this.#queues.get(key);
    if (!queue) return;
    this.#queues.delete(key);
    const keys = this.#byOwner.get(queue.owner);
    keys?.delete(key);
    if (keys?.size === 0) this.#byOwner.delete(queue.owner);
  }
}
