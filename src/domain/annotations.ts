import type { NodeRecord } from '../storage/schema.js';
import type { CloudStore } from './cloud-store.js';
import { invalid, notFound } from './errors.js';
import { checkName } from './names.js';

/** Tags and metadata key/values on containers and files (shapes inferred: no wire example survives). */
export class Annotations {
  readonly #store: CloudStore;

  constructor(store: CloudStore) {
    this.#store = store;
  }

  async addTag(user: string, id: string, rawTag: string): Promise<NodeRecord> {
    const tag = checkName(rawTag);
    const node = this.#store.get(user, id);
    if (!node.tags.includes(tag)) {
      node.tags.push(tag);
      await this.#store.persist();
    }
    return node;
  }

  async removeTag(user: string, id: string, tag: string): Promise<void> {
    const node = this.#store.get(user, id);
    if (!node.tags.includes(tag)) throw notFound('tag on this object');
    node.tags = node.tags.filter((t) => t !== tag);
    await this.#store.persist();
  }

  /** Tags on the user's live objects, sorted. */
  tagsInUse(user: string): string[] {
    const tags = new Set<string>();
    for (const n of this.#store.liveNodesOf(user)) for (const t of n.tags) tags.add(t);
    return [...tags].sort();
  }

  taggedWith(user: string, tag: string): NodeRecord[] {
    const found = this.#store.liveNodesOf(user).filter((n) => n.tags.includes(tag));
    if (found.length === 0) throw notFound('tag');
    return found;
  }

  async setMetadata(user: string, id: string, key: string, value: string): Promise<void> {
    if (key.length === 0 || key.length > 255) throw invalid('metadata key must be 1 to 255 characters');
    this.#store.get(user, id).metadata[key] = value;
    await this.#store.persist();
  }

  async deleteMetadata(user: string, id: string, key: string): Promise<void> {
    const node = this.#store.get(user, id);
    if (!Object.hasOwn(node.metadata, key)) throw notFound('metadata item');
    delete node.metadata[key];
    await this.#store.persist();
  }
}
