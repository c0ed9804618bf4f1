import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import type { CloudStore } from '../../../src/domain/cloud-store.js';
import { inspectChildren } from '../../../src/admin/inspector-files.js';
import { createApp, type MockApp } from '../../../src/index.js';
import { resetStore } from '../../helpers/stores.js';

const DEPTH = 10_000;

let mock: MockApp | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** A chain c0/c1/.../c9999 with two members in the last: a container and a file. */
async function deepChain(): Promise<{ mock: MockApp; bottom: string }> {
  mock = await createApp({ seed: 'empty' });
  let bottom = '';
  await resetStore(mock.store, {
    users: ['demo'],
    tree: (state, user) => {
      let parent = state.root(user).id;
      for (let i = 0; i < DEPTH; i++) parent = state.addContainer(user, parent, `c${i}`).id;
      state.addContainer(user, parent, 'inner');
      state.addFile(user, parent, { name: 'bottom.txt' }, Buffer.from('deep'));
      bottom = parent;
    },
  });
  return { mock, bottom };
}

/** The store with every call to it and to its tree counted, by method name. */
function counted(store: CloudStore): { store: CloudStore; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const count = <T extends object>(target: T, prefix: string): T =>
    new Proxy(target, {
      get(t, key) {
        const value = Reflect.get(t, key, t) as unknown;
        if (key === 'tree' && prefix === '') return count(value as object, 'tree.');
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const name = `${prefix}${String(key)}`;
          calls.set(name, (calls.get(name) ?? 0) + 1);
          return (value as (...a: unknown[]) => unknown).apply(t, args);
        };
      },
    });
  return { store: count(store, ''), calls };
}

describe("the inspector's path walk is linear in the depth", () => {
  it(`a container ${DEPTH.toLocaleString('en')} levels deep is listed with a constant number of store lookups, not one per ancestor`, async () => {
    const { mock, bottom } = await deepChain();
    const { store, calls } = counted(mock.store);
    const listing = await inspectChildren(store, 'demo', bottom);
    const path = Array.from({ length: DEPTH }, (_, i) => `c${i}`).join('/');
    expect(listing.nodes.map((n) => n.dav)).toEqual([`/dav/${path}/inner/`, `/dav/${path}/bottom.txt`]);
    expect(listing.nodes[0]!.members).toBe(0);
    const total = [...calls.values()].reduce((a, b) => a + b, 0);
    // The old walk asked the store for every ancestor (one `get`, itself walking to the root, per level).
    expect(calls.get('get') ?? 0).toBeLessThanOrEqual(2);
    expect(total).toBeLessThan(20);
  });

  it('the page answers /__admin/inspector/children for the deepest container with the full WebDAV path', async () => {
    const { mock, bottom } = await deepChain();
    const res = await request(mock.app)
      .get('/__admin/inspector/children')
      .query({ user: 'demo', id: bottom })
      .expect(200);
    expect(res.body.nodes[1].dav.split('/')).toHaveLength(DEPTH + 3);
    expect(res.body.nodes[1].dav.endsWith(`/c${DEPTH - 1}/bottom.txt`)).toBe(true);
  });
});
