import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type MockApp, type ScenarioDefinition } from '../../../src/index.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const seeded = (tree: unknown, users?: Record<string, string>): ScenarioDefinition =>
  ({ name: 'bad-seed', seed: { tree, ...(users && { users }) } }) as ScenarioDefinition;

describe('a refused scenario switch changes nothing at all: store, users, active scenario', () => {
  const dir = useTempDir('refused-switch');
  const opened: MockApp[] = [];
  afterEach(async () => {
    for (const mock of opened.splice(0)) await mock.close();
  });
  const open = async (): Promise<MockApp> => {
    const mock = await createApp({ data: join(dir.path, 'state.json'), scenario: 'default' });
    opened.push(mock);
    return mock;
  };

  it('a seed name over 255 characters, a backslash or a bad tag is refused (400) and the --data state survives a restart', async () => {
    const mock = await open();
    const root = mock.store.root('demo').id;
    await mock.store.createFile('demo', root, { name: 'precious.txt' }, Buffer.from('keep me'));
    const before = mock.store.tree.children(root).map((n) => n.name);
    const refused = [
      seeded([{ file: 'x'.repeat(256), text: 'a' }]),
      seeded([{ container: 'ok', children: [{ file: 'back\\slash', text: 'a' }] }]),
      seeded([{ file: 'tagged.txt', text: 'a', tags: ['bad/tag'] }]),
      seeded([{ file: 'x'.repeat(256) }], { newcomer: 'pw' }),
    ];
    for (const scenario of refused) {
      await expect(mock.useScenario(scenario)).rejects.toThrow(
        /seed\.tree\[0\].*(255 characters|is not allowed)|must not contain/,
      );
      expect(mock.scenario.name).toBe('default');
      expect(mock.store.tree.users()).toEqual(['demo']);
      expect(mock.store.tree.children(root).map((n) => n.name)).toEqual(before);
    }
    await mock.close();
    opened.length = 0;
    const again = await open();
    expect(again.store.resolvePath('demo', ['precious.txt'])?.bytes).toBe(7);
  });

  it('a seed user named constructor is a user like any other', async () => {
    const mock = await open();
    await mock.useScenario(
      seeded([{ file: 'hello.txt', text: 'hi' }], { constructor: 'pw', __proto__: 'x' } as Record<string, string>),
    );
    expect(mock.store.tree.users().sort()).toEqual(['constructor', 'demo']);
    expect(mock.store.resolvePath('constructor', ['hello.txt'])?.bytes).toBe(2);
  });
});
