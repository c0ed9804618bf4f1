// What a --data start makes: a file that is not a csp-mock state is refused before anything is made beside it
// (no blob folder, no lock or log, and what was there before is all still there, byte for byte); a new state in
// a folder that does not exist yet gets that folder, private.
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMock } from '../../../src/index.js';
import { useTempDir } from '../../helpers/temp-dir.js';

/** Every path under a folder with its bytes (folders as null), sorted. */
async function contentsOf(dir: string): Promise<Array<[string, string | null]>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const listed: Array<[string, string | null]> = [];
  for (const entry of entries) {
    const path = join(entry.parentPath, entry.name);
    listed.push([path.slice(dir.length), entry.isDirectory() ? null : await readFile(path, 'utf8')]);
  }
  return listed.sort(([a], [b]) => a.localeCompare(b));
}

describe('what a --data start makes', () => {
  const tmp = useTempDir('refused-data');

  it('--data package.json is refused and leaves no package.json.blobs folder (nor lock nor log) behind', async () => {
    const file = join(tmp.path, 'package.json');
    await writeFile(file, JSON.stringify({ name: 'a-client-project', version: '1.0.0' }, null, 2));
    const before = await contentsOf(tmp.path);
    await expect(startMock({ port: 0, data: file })).rejects.toThrow(/package\.json/);
    expect(await contentsOf(tmp.path)).toEqual(before);
  });

  it('a refused start keeps a blob folder that was already there, with its files', async () => {
    const file = join(tmp.path, 'state.json');
    await writeFile(file, '{"not": "a state"}');
    await mkdir(join(tmp.path, 'state.json.blobs'));
    await writeFile(join(tmp.path, 'state.json.blobs', 'kept'), 'bytes of an earlier start');
    const before = await contentsOf(tmp.path);
    await expect(startMock({ port: 0, data: file })).rejects.toThrow(/state\.json/);
    expect(await contentsOf(tmp.path)).toEqual(before);
  });

  it('a new state in a folder that does not exist yet starts, the folder made private (0700)', async () => {
    const file = join(tmp.path, 'state', 'cloud.json');
    const mock = await startMock({ port: 0, data: file });
    await mock.close();
    expect((await stat(join(tmp.path, 'state'))).mode & 0o777).toBe(0o700);
    expect((await readdir(join(tmp.path, 'state'))).sort()).toEqual(['cloud.json', 'cloud.json.blobs']);
  });
});
