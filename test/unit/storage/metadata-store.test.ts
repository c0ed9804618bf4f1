import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { openMetadataDb } from '../../../src/storage/metadata-store.js';
import { emptyState } from '../../../src/storage/schema.js';
import { stateProblem, stateTempFileOf } from '../../../src/storage/state-file.js';
import { useTempDir } from '../../helpers/temp-dir.js';

describe('metadata store (lowdb)', () => {
  const tmp = useTempDir('meta');
  let file: string;
  beforeEach(() => {
    file = join(tmp.path, 'state.json');
  });

  it('starts empty in memory and never touches the disk', async () => {
    const db = await openMetadataDb();
    expect(db.data).toEqual(emptyState());
    db.data.users['x'] = { rootId: 'r' };
    await db.write();
    expect(existsSync(file)).toBe(false);
  });

  it('starts empty when the file does not exist, creates it on the first write, and loads it again', async () => {
    const db = await openMetadataDb(file);
    expect(db.data).toEqual(emptyState());
    expect(existsSync(file)).toBe(false);
    db.data.users['ann'] = { rootId: 'root1' };
    db.data.nodes['root1'] = { ...rootNode('root1', 'ann') };
    await db.write();
    const again = await openMetadataDb(file);
    expect(again.data.users).toEqual({ ann: { rootId: 'root1' } });
    expect(JSON.parse(await readFile(file, 'utf8')).schema).toBe(1);
  });

  it('drops the temp file a crash during a write left beside the state file', async () => {
    await writeFile(stateTempFileOf(file), '{"schema":1,"us');
    await openMetadataDb(file);
    expect(existsSync(stateTempFileOf(file))).toBe(false);
  });

  it.each([
    ['not JSON', 'garbage{', /state file .*state\.json is not valid JSON/],
    ['empty', '', /state file .*state\.json is not valid JSON/],
    ['a JSON array', '[]', /state file .*state\.json is not a csp-mock state: the top level is not an object/],
    ['JSON null', 'null', /state file .*state\.json is not a csp-mock state/],
    ['another program\'s JSON', '{"name":"my-app","version":"1.0.0"}', /state file .*state\.json is not a csp-mock state: schema is undefined/],
    ['a future schema', '{"schema":2,"users":{},"nodes":{}}', /schema is 2, expected 1/],
    ['a user without root', '{"schema":1,"users":{"ann":{"rootId":"nope"}},"nodes":{}}', /user "ann" has no root container/],
  ])('refuses a state file that is %s, naming the file, and leaves it untouched', async (_what, text, message) => {
    await writeFile(file, text);
    await expect(openMetadataDb(file)).rejects.toThrow(message);
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('refuses a node that names a blob by anything but an opaque id', () => {
    const state = { schema: 1, users: {}, nodes: { n: { ...rootNode('n', 'ann'), kind: 'file', blobId: '../../etc/passwd' } } };
    expect(stateProblem(state)).toMatch(/names blob/);
  });
});

function rootNode(id: string, owner: string) {
  return {
    id, kind: 'container' as const, owner, name: '/', parentId: null, created: 1, modified: 1, accessed: 1, version: 1,
    public: false, mimeType: '', bytes: 0, blobId: null, tags: [], metadata: {}, deadProps: {}, recycled: null,
  };
}
