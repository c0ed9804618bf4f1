import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeWholeFile } from '../../../src/files/whole-file.js';
import { useTempDir } from '../../helpers/temp-dir.js';

describe('writeWholeFile: a file is replaced whole or not at all', () => {
  const tmp = useTempDir('whole-file');

  it('a write that fails part-way leaves the previous file whole and removes its temp file', async () => {
    const file = join(tmp.path, 'state.json');
    await writeFile(file, 'the good state');
    const failing = writeWholeFile(file, async (put) => {
      await put('half of a new ');
      throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    });
    await expect(failing).rejects.toThrow(/no space left/);
    expect(await readFile(file, 'utf8')).toBe('the good state');
    expect(await readdir(tmp.path)).toEqual(['state.json']);
  });

  it('writes every put in order, private (0600) whatever the umask, or with the mode asked', async () => {
    const before = process.umask(0o022);
    try {
      const file = join(tmp.path, 'a.json');
      const { bytes } = await writeWholeFile(file, async (put) => {
        await put('{"a":');
        await put(Buffer.from('1}'));
      });
      expect(bytes).toBe(7);
      expect(await readFile(file, 'utf8')).toBe('{"a":1}');
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      await writeWholeFile(join(tmp.path, 'ca.crt'), (put) => put('x'), { mode: 0o644 });
      expect((await stat(join(tmp.path, 'ca.crt'))).mode & 0o777).toBe(0o644);
    } finally {
      process.umask(before);
    }
  });

  it("'keep' leaves a file that is already there and says so", async () => {
    const file = join(tmp.path, 'ca.pem');
    await writeFile(file, 'first');
    const { published } = await writeWholeFile(file, (put) => put('second'), { publish: 'keep' });
    expect(published).toBe(false);
    expect(await readFile(file, 'utf8')).toBe('first');
    expect(await readdir(tmp.path)).toEqual(['ca.pem']);
  });
});
