// rclone against /dav under the flaky-uploads scenario: its PUTs meet the scenario's seeded resets, 503s and
// 500s, and rclone's own retries bring every file across whole.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { rcloneRemote } from './rclone-remote.js';

const FILES = 40;
const AUTH = { Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}` };
const sha = (b: Buffer | ArrayBuffer): string =>
  createHash('sha256')
    .update(Buffer.isBuffer(b) ? b : Buffer.from(b))
    .digest('hex');

describe('rclone copy to /dav under flaky-uploads', () => {
  let mock: RunningMock;
  let work: string;
  beforeEach(async () => {
    mock = await startMock({ seed: 'empty', scenario: 'flaky-uploads' });
    work = await mkdtemp(join(tmpdir(), 'csp-mock-rclone-flaky-'));
  });
  afterEach(async () => {
    await mock.close();
    await rm(work, { recursive: true, force: true });
  });

  it(
    `${FILES} files: the WebDAV PUTs meet resets, 503s and 500s, and rclone's retries bring every file across whole`,
    { timeout: 300_000 },
    async () => {
      const local = join(work, 'local');
      await mkdir(local);
      const expected = new Map<string, string>();
      for (let i = 0; i < FILES; i++) {
        const bytes = randomBytes(1000 + i);
        await writeFile(join(local, `file-${i}.bin`), bytes);
        expected.set(`file-${i}.bin`, sha(bytes));
      }
      const remote = await rcloneRemote(mock.url, work);
      const run = await remote.runWithRetries('copy', local, 'csp:up', '--retries', '10', '--retries-sleep', '0');
      expect(run.code, run.output).toBe(0);

      const puts = await mock.requests({ method: 'PUT', path: '/dav/up/**' });
      const faults = new Set(puts.flatMap((e) => (e.fault ? [e.fault] : [])));
      expect([...faults].sort()).toEqual(['dav-upload-500', 'dav-upload-busy', 'dav-upload-reset']);
      expect(puts.length, 'every failed PUT was sent again').toBeGreaterThan(FILES);
      expect(puts.filter((e) => e.status === 201 || e.status === 204)).toHaveLength(FILES);

      for (const [name, hash] of expected) {
        const res = await fetch(`${mock.url}/dav/up/${name}`, { headers: AUTH });
        expect(res.status, name).toBe(200);
        expect(sha(await res.arrayBuffer()), name).toBe(hash);
      }
    },
  );
});
