import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { deepJson } from '../../../src/admin/deep-json.js';
import { createApp, type MockApp } from '../../../src/index.js';
import { resetStore } from '../../../src/mock-state.js';

const DEPTH = 12_000;

let mock: MockApp | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** Follows `children[0]` down from the first top-level entry; returns how many levels and the last. */
function chainDepth(entries: unknown[]): { depth: number; last: Record<string, unknown> } {
  let node = entries[0] as Record<string, unknown>;
  let depth = 1;
  while (Array.isArray(node['children'])) {
    node = (node['children'] as unknown[])[0] as Record<string, unknown>;
    depth++;
  }
  return { depth, last: node };
}

describe('GET /__admin/state of a very deep tree (built and written without recursion)', () => {
  it(`exports a ${DEPTH.toLocaleString('en')}-deep chain as a seed and as the state view`, async () => {
    mock = await createApp({ seed: 'empty' });
    await resetStore(mock.store, {
      users: ['demo'],
      tree: (state, user) => {
        let parent = state.root(user).id;
        for (let i = 0; i < DEPTH; i++) parent = state.addContainer(user, parent, `c${i}`).id;
        state.addFile(user, parent, { name: 'bottom.txt' }, Buffer.from('deep'));
      },
    });
    const seed = await request(mock.app).get('/__admin/state?format=seed').expect(200);
    expect(seed.type).toBe('application/json');
    const exported = chainDepth(seed.body.seed.trees.demo);
    expect(exported.depth).toBe(DEPTH + 1);
    expect(exported.last).toEqual({ file: 'bottom.txt', mimeType: 'application/octet-stream', text: 'deep' });

    const view = await request(mock.app).get('/__admin/state').expect(200);
    const shown = chainDepth(view.body.users.demo.tree);
    expect(shown.depth).toBe(DEPTH + 1);
    expect(shown.last).toMatchObject({ file: 'bottom.txt', bytes: 4 });
  });

  it('writes what JSON.stringify writes for plain data', () => {
    const value = {
      a: [1, 'two', null, true, { b: undefined, c: 'x"y\n', d: [] }],
      e: {},
      [`__proto__`]: 'plain',
      f: undefined,
    };
    expect(deepJson(value)).toBe(JSON.stringify(value));
    expect(deepJson([undefined, () => 1])).toBe(JSON.stringify([undefined, () => 1]));
    expect(deepJson('s')).toBe('"s"');
  });
});
