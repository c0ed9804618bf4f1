import { describe, expect, it } from 'vitest';
import { LockTable } from '../../../src/domain/locks.js';
import { newNode } from '../../../src/domain/node-records.js';
import { Tree, type TreeQueries } from '../../../src/domain/tree.js';
import type { NodeRecord } from '../../../src/storage/schema.js';

const LOCKS = 8000;
const request = { owner: 'alice', scope: 'exclusive', depth: '0', ownerXml: '', timeout: 600 } as const;

/** A tree: root / {locked: LOCKS files, plain: {f}}, and a lock table that counts its tree lookups. */
function world(): { tree: Tree; locks: LockTable; lookups: () => number; ids: Record<string, string> } {
  const tree = new Tree();
  const root = newNode('alice', 'container', '/', null, 1);
  const locked = newNode('alice', 'container', 'locked', root.id, 1);
  const plain = newNode('alice', 'container', 'plain', root.id, 1);
  const file = newNode('alice', 'file', 'f', plain.id, 1);
  const lockedFiles: NodeRecord[] = Array.from({ length: LOCKS }, (_, i) =>
    newNode('alice', 'file', `l${i}`, locked.id, 1),
  );
  tree.apply({
    users: [{ login: 'alice', user: { rootId: root.id } }],
    nodes: [root, locked, plain, file, ...lockedFiles],
  });
  let count = 0;
  const counting: TreeQueries = new Proxy(tree, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        count++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const locks = new LockTable(counting);
  return {
    tree,
    locks,
    lookups: () => count,
    ids: { root: root.id, locked: locked.id, plain: plain.id, file: file.id, l0: lockedFiles[0]!.id },
  };
}

/** Tree lookups made by the checks a PUT, a DELETE and a depth-infinity LOCK elsewhere make. */
function checkCost(w: ReturnType<typeof world>): number {
  const before = w.lookups();
  w.locks.assertCanWrite({ members: [w.ids.plain!] });
  w.locks.assertCanWrite({ content: w.ids.file! });
  w.locks.assertCanWrite({ remove: w.ids.plain! });
  w.locks.assertCanLock(w.ids.plain!, w.ids.root!, { scope: 'exclusive', depth: 'infinity' });
  return w.lookups() - before;
}

describe('lock checks cost the depth of the path, not the size of the lock table', () => {
  it(`${LOCKS} live locks elsewhere cost the checks of a write, a delete or a lock what one lock does`, () => {
    const lockAll = (w: ReturnType<typeof world>, n: number): void => {
      const ids = [...w.tree.childIds(w.ids.locked!)];
      for (let i = 0; i < n; i++) w.locks.add({ ...request, rootId: ids[i]! });
    };
    const one = world();
    lockAll(one, 1);
    const busy = world();
    lockAll(busy, LOCKS);
    expect(busy.locks.size).toBe(LOCKS);
    const cost = checkCost(one);
    expect(cost, 'a few lookups: the depth of the paths').toBeLessThan(30);
    expect(checkCost(busy)).toBe(cost);
  });

  it('still finds the locks below a node it deletes or locks, and drops them with a move', () => {
    const w = world();
    const lock = w.locks.add({ ...request, rootId: w.ids.l0! });
    expect(w.locks.below(w.ids.locked!)).toEqual([lock]);
    expect(w.locks.below(w.ids.root!)).toEqual([lock]);
    expect(w.locks.below(w.ids.plain!)).toEqual([]);
    expect(() => w.locks.assertCanWrite({ remove: w.ids.locked! })).toThrow(/locked/);
    w.locks.assertCanWrite({ remove: w.ids.locked! }, new Set([lock.token]));
    expect(w.locks.releaseWithin(w.ids.locked!)).toEqual([lock]);
    expect(w.locks.below(w.ids.root!)).toEqual([]);
    w.locks.restore([lock]);
    expect(w.locks.below(w.ids.root!)).toEqual([lock]);
  });

  it('an expired lock is dropped when a check meets it, with no sweep of the table', () => {
    let now = 0;
    const w = world();
    const locks = new LockTable(w.tree, () => now);
    locks.add({ ...request, rootId: w.ids.l0!, timeout: 1 });
    expect(() => locks.assertCanWrite({ content: w.ids.l0! })).toThrow(/locked/);
    now = 1000;
    locks.assertCanWrite({ content: w.ids.l0! });
    expect(locks.size).toBe(0);
  });
});
