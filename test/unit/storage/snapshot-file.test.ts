import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { nodeRecord } from '../../helpers/node-record.js';
import { Low } from 'lowdb';
import { readSnapshot, SnapshotFile } from '../../../src/storage/snapshot-file.js';
import { emptyPlainState, openStatePersistence } from '../../../src/storage/state-log.js';
import { stateTempFileOf } from '../../../src/storage/state-file.js';
import { useTempDir } from '../../helpers/temp-dir.js';

describe('the snapshot file (a lowdb JSON document)', () => {
  const tmp = useTempDir('snapshot');
  let file: string;
  beforeEach(() => {
    file = join(tmp.path, 'state.json');
  });

  it('is absent until written, then reads back with its log position, users and nodes as plain data', async () => {
    expect(await readSnapshot(file)).toBeUndefined();
    const db = new Low(new SnapshotFile(file), emptyPlainState());
    const state = emptyPlainState();
    state.users['__proto__'] = { rootId: 'root1' };
    state.nodes['root1'] = rootNode('root1', '__proto__');
    (db.adapter as SnapshotFile).seq = 7;
    db.data = state;
    await db.write();
    const text = await readFile(file, 'utf8');
    expect(text.split('\n')).toContain(`    "root1": ${JSON.stringify(rootNode('root1', '__proto__'))}`);
    const read = (await readSnapshot(file))!;
    expect(read.seq).toBe(7);
    expect([...read.state.users.keys()]).toEqual(['__proto__']);
    expect(read.state.nodes.get('root1')).toEqual(rootNode('root1', '__proto__'));
    expect(existsSync(stateTempFileOf(file))).toBe(false);
  });

  it('drops the temp file a crash during a write left beside the state file', async () => {
    await writeFile(stateTempFileOf(file), '{"schema":1,"us');
    const persistence = openStatePersistence(file, { snapshot: emptyPlainState });
    await persistence.load();
    expect(existsSync(stateTempFileOf(file))).toBe(false);
    await persistence.close();
  });

  it.each([
    ['not JSON', 'garbage{', /state file .*state\.json is not valid JSON/],
    ['empty', '', /state file .*state\.json is not valid JSON/],
    ['a JSON array', '[]', /state file .*state\.json is not a csp-mock state: the top level is not an object/],
    ['JSON null', 'null', /state file .*state\.json is not a csp-mock state/],
    [
      "another program's JSON",
      '{"name":"my-app","version":"1.0.0"}',
      /state file .*state\.json is not a csp-mock state: schema is undefined/,
    ],
    ['a future schema', '{"schema":2,"users":{},"nodes":{}}', /schema is 2, expected 1/],
    [
      'a user without root',
      '{"schema":1,"users":{"ann":{"rootId":"nope"}},"nodes":{}}',
      /user "ann" has no root container/,
    ],
  ])('refuses a state file that is %s, naming the file, and leaves it untouched', async (_what, text, message) => {
    await writeFile(file, text);
    await expect(readSnapshot(file)).rejects.toThrow(message);
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('refuses a node that names a blob by anything but an opaque id', async () => {
    const state = {
      schema: 1,
      users: {},
      nodes: { n: { ...rootNode('n', 'ann'), kind: 'file', blobId: '../../etc/passwd' } },
    };
    await writeFile(file, JSON.stringify(state));
    await expect(readSnapshot(file)).rejects.toThrow(
      /node "n" has blobId "..\/..\/etc\/passwd", expected null or a blob id/,
    );
  });
});

function rootNode(id: string, owner: string) {
  return nodeRecord({ id, kind: 'container', owner, name: '/', parentId: null });
}
