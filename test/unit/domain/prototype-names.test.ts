import { afterEach, describe, expect, it } from 'vitest';
import { parseUserSpec } from '../../../src/option-table.js';
import { resolveOptions } from '../../../src/options.js';
import { openTestStore, STORE_KINDS, type TestStore } from '../../helpers/stores.js';

const NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty'];

describe('user-given keys are plain data: names of Object.prototype members', () => {
  it('--user constructor:pw and --user __proto__:x are users like any other', () => {
    const users = resolveOptions({ users: parseUserSpec(['constructor:pw', '__proto__:x', 'toString:y']) }).users;
    expect([...users]).toEqual([
      ['constructor', 'pw'],
      ['__proto__', 'x'],
      ['toString', 'y'],
    ]);
  });

  describe.each(STORE_KINDS)('%s store', (kind) => {
    let t: TestStore;
    afterEach(async () => {
      await t.dispose();
    });

    it('users, file names, metadata keys, tags and dead properties named like prototype members round-trip', async () => {
      t = await openTestStore(kind, { users: parseUserSpec(NAMES.map((n) => `${n}:pw`)) });
      expect(t.store.tree.users().sort()).toEqual([...NAMES].sort());
      for (const user of NAMES) {
        const root = t.store.root(user);
        expect(root.owner).toBe(user);
        for (const name of NAMES) {
          const f = await t.store.createFile(user, root.id, { name }, Buffer.from(name));
          await t.store.annotations.setMetadata(user, f.id, name, `value of ${name}`);
          await t.store.annotations.addTag(user, f.id, name);
          await t.store.changeDeadProps(user, f.id, [{ name, xml: `<x>${name}</x>` }]);
        }
        expect(
          t.store.tree
            .children(root.id)
            .map((n) => n.name)
            .sort(),
        ).toEqual([...NAMES].sort());
        expect(t.store.annotations.tagsInUse(user)).toEqual([...NAMES].sort());
      }
      const check = (store: typeof t.store): void => {
        for (const user of NAMES) {
          for (const name of NAMES) {
            const f = store.resolvePath(user, [name])!;
            expect(f.name).toBe(name);
            expect(Object.hasOwn(f.metadata, name)).toBe(true);
            expect(f.metadata[name]).toBe(`value of ${name}`);
            expect(Object.keys(f.metadata)).toEqual([name]);
            expect(f.deadProps[name]).toBe(`<x>${name}</x>`);
          }
          expect(store.resolvePath(user, ['valueOf'])).toBeUndefined();
        }
      };
      check(t.store);
      if (kind === 'file') check(await t.reopen());
      await t.store.annotations.deleteMetadata(
        'constructor',
        t.store.resolvePath('constructor', ['__proto__'])!.id,
        '__proto__',
      );
      expect(Object.keys(t.store.resolvePath('constructor', ['__proto__'])!.metadata)).toEqual([]);
    });
  });
});
