import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readContainedFile } from '../../../src/files/contained-file.js';

describe('readContainedFile reads a file whole', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'csp-mock-readtest-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('returns exactly the bytes of files small and large, empty included', async () => {
    for (const size of [0, 1, 1000, 64 * 1024, 64 * 1024 + 1, 3 * 1024 * 1024 + 17]) {
      const file = join(dir, `f-${size}`);
      const bytes = randomBytes(size);
      await writeFile(file, bytes);
      expect((await readContainedFile(file)).equals(bytes), `${size} bytes`).toBe(true);
    }
  });

  it('reads a file whose metadata tells no size (a /proc entry) to its end', async () => {
    expect((await readContainedFile('/proc/self/cmdline')).equals(readFileSync('/proc/self/cmdline'))).toBe(true);
    const maps = (await readContainedFile('/proc/self/smaps')).toString('utf8');
    expect(maps).toMatch(/^[0-9a-f]+-[0-9a-f]+ /);
    expect(maps.endsWith('\n')).toBe(true);
  });

  it('refuses a file over the cap, whether the metadata or the reading shows it', async () => {
    const file = join(dir, 'eleven');
    await writeFile(file, 'eleven byte');
    await expect(readContainedFile(file, { maxBytes: 10 })).rejects.toThrow('over the limit of 10');
    expect((await readContainedFile(file, { maxBytes: 11 })).toString()).toBe('eleven byte');
    await expect(readContainedFile('/proc/self/smaps', { maxBytes: 100 })).rejects.toThrow('over the limit of 100');
  });
});
