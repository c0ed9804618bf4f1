// A real WebDAV client's session recorded through `record` and verified: rclone lists an account that held data,
// uploads, reads, moves and deletes under /dav, and verify rebuilds the account it started on from the WebDAV
// listings (no /v2 request in the recording) and answers every exchange as recorded.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRecording, startMock, verifyRecording } from '../../src/index.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { rcloneRemote } from './rclone-remote.js';

describe('verify of an rclone session recorded under /dav', () => {
  const tmp = useTempDir('rclone-verify');

  it('starts from the listed account (folders, files, sizes, types) and finds no difference in any exchange', async () => {
    const upload = join(tmp.path, 'upload');
    await mkdir(join(upload, 'sub'), { recursive: true });
    await writeFile(join(upload, 'a.txt'), 'alpha');
    await writeFile(join(upload, 'sub', 'b.txt'), 'beta');
    const upstream = await startMock({ seed: 'demo' });
    const out = join(tmp.path, 'rclone.jsonl');
    const recorder = await startMock({ mode: { kind: 'record', upstream: upstream.url, out } });
    try {
      const rclone = await rcloneRemote(recorder.url, tmp.path);
      const ok = async (...args: string[]) => {
        const run = await rclone.run(...args);
        expect(run.code, `rclone ${args.join(' ')}: ${run.output}`).toBe(0);
        return run.output;
      };
      expect(await ok('lsf', '-R', 'csp:')).toContain('Documents/readme.txt');
      await ok('copy', upload, 'csp:Uploaded');
      expect(await ok('cat', 'csp:Uploaded/a.txt')).toBe('alpha');
      expect(await ok('cat', 'csp:Documents/readme.txt')).not.toBe('');
      await ok('moveto', 'csp:Uploaded/sub/b.txt', 'csp:Uploaded/b-moved.txt');
      await ok('moveto', 'csp:hello.json', 'csp:Uploaded/hello-moved.json');
      await ok('deletefile', 'csp:Uploaded/a.txt');
      expect(await ok('lsf', '-R', 'csp:Uploaded')).toContain('hello-moved.json');
    } finally {
      await recorder.close();
      await upstream.close();
    }

    const recording = await readRecording(out);
    expect(recording.exchanges.some((e) => e.request.path.startsWith('/v2'))).toBe(false);
    for (const method of ['PROPFIND', 'MKCOL', 'PUT', 'GET', 'MOVE', 'DELETE'])
      expect(recording.exchanges.map((e) => e.request.method)).toContain(method);
    const report = await verifyRecording(recording);
    expect(report.text).toContain(`${recording.exchanges.length} match, 0 differ, 0 skipped (start state: recording)`);
    expect(report.differing).toEqual([]);
    expect(report.passed).toBe(true);
  });
});
