// verify sends only requests to the service; everything else (a WebDAV server recorded at /, a web app's own
// page loads) is skipped and counted apart, never reported as a difference.
import { execFile } from 'node:child_process';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readRecording, startMock, verifyRecording } from '../../../src/index.js';
import { CLI } from '../../helpers/cli.js';
import { RECORDINGS_DIR, useTempDir } from './support.js';

const run = promisify(execFile);

async function verifyCli(file: string): Promise<{ code: number; stdout: string }> {
  return run(process.execPath, [CLI, 'verify', '--recording', file]).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
  );
}

describe('verify skips what it cannot send', () => {
  const tmp = useTempDir('verify-skipped');

  it('a WebDAV session recorded through record against a server served at / is all skipped, never counted as differences: nothing verified, exit 1', async () => {
    // The other server: a mock's /dav, reached by the recorder as an upstream served at /.
    const server = await startMock({ seed: 'empty', users: { up: 'pw' } });
    const out = join(tmp.path, 'at-root.jsonl');
    const recorder = await startMock({ mode: { kind: 'record', upstream: `${server.url}/dav`, out } });
    const auth = { Authorization: `Basic ${Buffer.from('up:pw').toString('base64')}` };
    const at = (path: string, init: RequestInit = {}) =>
      fetch(`${recorder.url}${path}`, { ...init, headers: { ...auth, ...(init.headers as object) } });
    try {
      expect((await at('/Docs', { method: 'MKCOL' })).status).toBe(201);
      expect((await at('/Docs/a.txt', { method: 'PUT', body: 'alpha' })).status).toBe(201);
      expect((await at('/Docs/', { method: 'PROPFIND', headers: { Depth: '1' } })).status).toBe(207);
      expect(await (await at('/Docs/a.txt')).text()).toBe('alpha');
    } finally {
      await recorder.close();
      await server.close();
    }
    const report = await verifyRecording(await readRecording(out));
    expect(report.differing).toEqual([]);
    expect(report.skipped.map((s) => `${s.method} ${s.path}`)).toEqual([
      'MKCOL /Docs',
      'PUT /Docs/a.txt',
      'PROPFIND /Docs/',
      'GET /Docs/a.txt',
    ]);
    expect(report.passed).toBe(false);
    const cli = await verifyCli(out);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain('skipped 4 exchange(s), not a service path (/v2, /dav, /cdmi)');
    expect(cli.stdout).toContain('  exchange 3: PROPFIND /Docs/');
    expect(cli.stdout).toContain('verify: 4 exchange(s), 0 match, 0 differ, 4 skipped (start state: empty)');
    expect(cli.stdout).toContain(
      'verify: nothing verified: the recording holds no request verify can send to the service',
    );
  });

  it("a web app's own page loads (HTML, JS, CSS) in a recording are skipped, the service's exchanges verified: exit 0", async () => {
    await cp(RECORDINGS_DIR, tmp.path, { recursive: true });
    const file = join(tmp.path, 'example-session.jsonl');
    const page = (id: number, path: string, type: string) =>
      `${JSON.stringify({ id, request: { method: 'GET', path, query: [], headers: {} }, response: { status: 200, headers: { 'content-type': type }, body: { text: 'page' } } })}\n`;
    await writeFile(
      file,
      (await readFile(file, 'utf8')) +
        page(101, '/', 'text/html') +
        page(102, '/assets/index-4f2a.js', 'text/javascript') +
        page(103, '/assets/index-9c1b.css', 'text/css'),
    );
    const report = await verifyRecording(await readRecording(file));
    expect(report).toMatchObject({ total: 24, matching: 21, differing: [], passed: true });
    expect(report.skipped.map((s) => s.id)).toEqual([101, 102, 103]);
    const cli = await verifyCli(file);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain('verify: 24 exchange(s), 21 match, 0 differ, 3 skipped');
  });

  it('an empty recording (a CI run that made no request) passes: nothing skipped, nothing to disagree with, exit 0', async () => {
    const file = join(tmp.path, 'empty.jsonl');
    await writeFile(
      file,
      `${JSON.stringify({ format: 'csp-mock-recording', version: 2, baseUrl: '{{baseUrl}}', redacted: [], created: new Date().toISOString() })}\n`,
    );
    const report = await verifyRecording(await readRecording(file));
    expect(report).toMatchObject({ total: 0, matching: 0, differing: [], skipped: [], passed: true });
    expect(report.text).not.toContain('nothing verified');
    const cli = await verifyCli(file);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain('verify: 0 exchange(s), 0 match, 0 differ, 0 skipped');
  });
});
