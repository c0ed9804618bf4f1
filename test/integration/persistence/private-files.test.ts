import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/index.js';
import { logFileOf } from '../../../src/storage/log-file.js';
import { useTempDir } from '../../helpers/temp-dir.js';
import { dav } from '../dav/dav-helpers.js';

const modeOf = async (path: string): Promise<number> => (await stat(path)).mode & 0o777;

describe('--data files are private to the user', () => {
  const tmp = useTempDir('private-files');

  it('under umask 022 the state file, its log and lock, the blobs folder and each blob are 0600/0700', async () => {
    const before = process.umask(0o022);
    try {
      const data = join(tmp.path, 'state.json');
      const mock = await createApp({ seed: 'empty', data });
      try {
        await dav(mock.app, 'PUT', '/dav/secret.txt').send('not for other users').expect(201);
        expect(await modeOf(data)).toBe(0o600);
        expect(await modeOf(logFileOf(data))).toBe(0o600);
        expect(await modeOf(`${data}.lock`)).toBe(0o600);
        expect(await modeOf(`${data}.blobs`)).toBe(0o700);
        const blobs = await readdir(`${data}.blobs`);
        expect(blobs.length).toBeGreaterThan(0);
        for (const blob of blobs) expect(await modeOf(join(`${data}.blobs`, blob)), blob).toBe(0o600);
      } finally {
        await mock.close();
      }
      // The snapshot a clean stop writes is private too.
      expect(await modeOf(data)).toBe(0o600);
    } finally {
      process.umask(before);
    }
  });
});
