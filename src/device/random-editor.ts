import type { CloudStore } from '../domain/cloud-store.js';
import type { NodeRecord } from '../domain/model.js';
import {
  CHANGE_KINDS,
  DEFAULT_RANDOM_LIMIT,
  type DeviceChange,
  type RandomEditor,
  type RandomKind,
} from '../scenarios/types.js';
import { seededRandom } from '../scenarios/seeded-random.js';
import { namesOf } from './object-paths.js';

const ALL_KINDS = CHANGE_KINDS.filter((kind): kind is RandomKind => kind !== 'quota');

/** The editor looks at no more objects than this under its folder (it walks them on every change). */
const MAX_SEEN = 10_000;

interface Seen {
  path: string;
  node: NodeRecord;
}

const join = (dir: string, name: string): string => (dir === '/' ? `/${name}` : `${dir}/${name}`);

/**
 * Draws the random editor's next change from its seed and the current tree: the same seed over the
 * same tree gives the same changes. Objects are taken in path order (ids are random, paths are not).
 */
export class RandomChanges {
  readonly #config: RandomEditor;
  readonly #user: string;
  readonly #draw: () => number;
  readonly #kinds: readonly RandomKind[];
  readonly #under: string;
  #count = 0;

  constructor(config: RandomEditor, user: string) {
    this.#config = config;
    this.#user = user;
    this.#draw = seededRandom(config.seed ?? 1);
    this.#kinds = config.kinds ?? ALL_KINDS;
    this.#under = `/${namesOf(config.under ?? '/').join('/')}`;
  }

  /** How many changes it has drawn. */
  get count(): number {
    return this.#count;
  }

  /** True once `limit` changes were drawn. */
  get done(): boolean {
    return this.#count >= (this.#config.limit ?? DEFAULT_RANDOM_LIMIT);
  }

  next(store: CloudStore): DeviceChange {
    const n = ++this.#count;
    const user = this.#user;
    const seen = this.#walk(store);
    const containers = seen.filter((s) => s.node.kind === 'container');
    const objects = seen.slice(1);
    const files = objects.filter((s) => s.node.kind === 'file');
    const pick = <T>(items: readonly T[]): T => items[Math.floor(this.#draw() * items.length)]!;
    const kind = pick(this.#kinds);
    const createHere = (): DeviceChange => ({ user, create: join(this.#under, `random-${n}.txt`), text: `edit ${n}` });
    switch (kind) {
      case 'create':
        return { user, create: join(pick(containers)?.path ?? this.#under, `random-${n}.txt`), text: `edit ${n}` };
      case 'createFolder':
        return { user, createFolder: join(pick(containers)?.path ?? this.#under, `random-folder-${n}`) };
      case 'overwrite':
        return files.length ? { user, overwrite: pick(files).path, text: `edit ${n}` } : createHere();
      case 'rename': {
        if (!objects.length) return createHere();
        const target = pick(objects);
        return { user, rename: target.path, to: `renamed-${n}-${target.node.name}` };
      }
      case 'move': {
        if (!objects.length) return createHere();
        const target = pick(objects);
        const places = containers.filter(
          (c) => c.node.id !== target.node.parentId && !store.tree.isWithin(c.node.id, target.node.id),
        );
        return places.length ? { user, move: target.path, to: pick(places).path } : createHere();
      }
      case 'delete':
        return objects.length ? { user, delete: pick(objects).path } : createHere();
      case 'metadata':
        return objects.length
          ? { user, metadata: pick(objects).path, set: { 'random-editor': String(n) } }
          : createHere();
      case 'tags':
        return objects.length ? { user, tags: pick(objects).path, add: [`random-${n}`] } : createHere();
    }
  }

  /** The folder `under` and the live objects below it, breadth first, each folder's members by name. */
  #walk(store: CloudStore): Seen[] {
    const start = store.tree.users().includes(this.#user)
      ? store.resolvePath(this.#user, namesOf(this.#under))
      : undefined;
    if (!start || start.kind !== 'container') return [];
    const seen: Seen[] = [{ path: this.#under, node: start }];
    for (let i = 0; i < seen.length && seen.length < MAX_SEEN; i++) {
      const { path, node } = seen[i]!;
      if (node.kind !== 'container') continue;
      const members = store.tree.children(node.id).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const child of members) seen.push({ path: join(path, child.name), node: child });
    }
    return seen.slice(0, MAX_SEEN);
  }
}
