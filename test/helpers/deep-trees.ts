import { createApp, type MockApp } from '../../src/index.js';
import { resetStore } from './stores.js';

/** A mock whose demo user holds a chain of `depth` containers (c0/c1/...) with bottom.txt ("deep") at the end. */
export async function deepChainMock(depth: number): Promise<MockApp> {
  const app = await createApp({ seed: 'empty' });
  await resetStore(app.store, {
    users: ['demo'],
    tree: (state, user) => {
      let parent = state.root(user).id;
      for (let i = 0; i < depth; i++) parent = state.addContainer(user, parent, `c${i}`).id;
      state.addFile(user, parent, { name: 'bottom.txt' }, Buffer.from('deep'));
    },
  });
  return app;
}

/** Follows `children[0]` down from the first top-level entry; returns how many levels and the last. */
export function chainDepth(entries: unknown[]): { depth: number; last: Record<string, unknown> } {
  let node = entries[0] as Record<string, unknown>;
  let depth = 1;
  while (Array.isArray(node['children'])) {
    node = (node['children'] as unknown[])[0] as Record<string, unknown>;
    depth++;
  }
  return { depth, last: node };
}
