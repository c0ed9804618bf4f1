// The command users run (package.json bin): dist/cli/bin.js, which runs the CLI as `npm run build` bundles it.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpCloud } from '../../helpers/http-cloud.js';
import { BASIC_DEMO, CLI as BIN, killServersAfterEach, serve } from '../../helpers/cli.js';

const run = promisify(execFile);
const PACKAGE = JSON.parse(readFileSync(fileURLToPath(new URL('../../../package.json', import.meta.url)), 'utf8')) as {
  bin: Record<string, string>;
  version: string;
};

killServersAfterEach();

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function scratchDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'csp-mock-bin-'));
  dirs.push(dir);
  return dir;
}

describe('the csp-mock command', () => {
  it('is what package.json installs as the csp-mock command', () => {
    expect(fileURLToPath(new URL(`../../../${PACKAGE.bin['csp-mock']}`, import.meta.url))).toBe(BIN);
  });

  it("--version prints csp-mock's version, not that of the project it runs in", async () => {
    const project = scratchDir();
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'a-client-project', version: '9.9.9' }));
    const { stdout } = await run(process.execPath, [BIN, '--version'], { cwd: project });
    expect(stdout).toBe(`${PACKAGE.version}\n`);
  });

  it('serves /v2 and /dav, and guesses a media type from a file name', async () => {
    const mock = await serve(['--empty']);
    const cloud = new HttpCloud(mock.url);
    const png = readFileSync(fileURLToPath(new URL('../../fixtures/red-2x2.png', import.meta.url)));
    // FormData sends the part as application/octet-stream, which the mock replaces by the name's type.
    const file = await cloud.upload(await cloud.rootPath(), 'picture.png', png);
    const entity = await (await cloud.request(file, {}, 200)).text();
    expect(entity).toMatch(/<mime_type>image\/png<\/mime_type>/);
    const got = await fetch(`${mock.url}/dav/picture.png`, { headers: { Authorization: BASIC_DEMO } });
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await got.arrayBuffer()).equals(png)).toBe(true);
  });

  it('refuses a body over its limit with 413', async () => {
    const mock = await serve(['--empty']);
    const cloud = new HttpCloud(mock.url);
    const file = await cloud.upload(await cloud.rootPath(), 'notes.txt', Buffer.from('notes'));
    const res = await cloud.request(file, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/vnd.csp.file-info+xml' },
      body: Buffer.alloc(1024 * 1024 + 1, 'a'),
    });
    expect(res.status).toBe(413);
  });

  it('runs verify against the shipped recording', async () => {
    const { stdout } = await run(process.execPath, [BIN, 'verify', '--recording', 'example-session']);
    expect(stdout).toBe('verify: 21 exchange(s), 21 match, 0 differ, 0 skipped (start state: empty)\n');
  });
});
