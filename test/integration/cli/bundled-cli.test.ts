// The command users run (package.json bin): the CLI bundled into dist/cli-bundle/main.cjs, started by
// csp-mock.cjs through a V8 code cache. It must behave exactly like the unbundled dist/cli/main.js.
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpCloud } from '../../helpers/http-cloud.js';
import { BASIC_DEMO, CLI as BIN, UNBUNDLED_CLI as CLI, killServersAfterEach, serve } from '../../helpers/cli.js';

const run = promisify(execFile);
const PACKAGE = JSON.parse(readFileSync(fileURLToPath(new URL('../../../package.json', import.meta.url)), 'utf8')) as {
  bin: Record<string, string>;
  version: string;
};

killServersAfterEach();

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    chmodSync(dir, 0o700);
    rmSync(dir, { recursive: true, force: true });
  }
});
function cacheDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'csp-mock-compile-cache-'));
  dirs.push(dir);
  return dir;
}

async function output(entry: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const { stdout } = await run(process.execPath, [entry, ...args], { env });
  return stdout;
}

describe('the bundled csp-mock command', () => {
  it('is what package.json installs as the csp-mock command', () => {
    expect(fileURLToPath(new URL(`../../../${PACKAGE.bin['csp-mock']}`, import.meta.url))).toBe(BIN);
  });

  it('prints the same help, laid out the same, as the unbundled CLI (help layout is loaded lazily)', async () => {
    for (const args of [['--help'], ['serve', '--help'], ['replay', '--help'], ['--version']]) {
      const [bundled, unbundled] = await Promise.all([output(BIN, args), output(CLI, args)]);
      expect(bundled, args.join(' ')).toBe(unbundled);
      expect(bundled.length).toBeGreaterThan(0);
    }
  });

  it("--version prints csp-mock's version, not that of the project it runs in", async () => {
    const project = cacheDir();
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'a-client-project', version: '9.9.9' }));
    for (const entry of [BIN, CLI]) {
      const { stdout } = await run(process.execPath, [entry, '--version'], { cwd: project });
      expect(stdout, entry).toBe(`${PACKAGE.version}\n`);
    }
  });

  it('serves /v2 and /dav, and guesses a media type from a file name (mime-types is loaded on first use)', async () => {
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

  it('refuses a body over its limit with 413 (http-errors is loaded on first use)', async () => {
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

  it('runs verify, whose record/replay code is loaded only by the commands that use it', async () => {
    const { stdout } = await run(process.execPath, [BIN, 'verify', '--recording', 'example-session']);
    expect(stdout).toBe('verify: 21 exchange(s), 21 match, 0 differ (start state: empty)\n');
  });
});

describe('the compile cache of the bundled command', () => {
  const cacheFiles = (dir: string): string[] => readdirSync(dir).filter((f) => f.endsWith('.v8cache'));

  it('is written by the first start of a command and reused, untouched, by the next', async () => {
    const dir = cacheDir();
    const env = { ...process.env, CSP_MOCK_COMPILE_CACHE: dir };
    await output(BIN, ['scenarios'], env);
    const [file] = cacheFiles(dir);
    expect(file).toMatch(new RegExp(`^scenarios\\.${process.version.replace(/\./g, '\\.')}-${process.arch}\\.`));
    const first = statSync(join(dir, file!));
    const listed = await output(BIN, ['scenarios'], env);
    expect(listed).toMatch(/default/);
    const second = statSync(join(dir, file!));
    expect(second.mtimeMs).toBe(first.mtimeMs);
    expect(second.ino).toBe(first.ino);
    expect(cacheFiles(dir)).toEqual([file]);
  });

  it('makes a missing cache folder that only its user can enter (the cache is code)', async () => {
    const dir = join(cacheDir(), 'made-by-csp-mock');
    await output(BIN, ['scenarios'], { ...process.env, CSP_MOCK_COMPILE_CACHE: dir });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(cacheFiles(dir)).toHaveLength(1);
  });

  it('keeps one cache per command', async () => {
    const dir = cacheDir();
    const env = { ...process.env, CSP_MOCK_COMPILE_CACHE: dir };
    await output(BIN, ['scenarios'], env);
    await output(BIN, ['--version'], env);
    expect(
      cacheFiles(dir)
        .map((f) => f.split('.')[0])
        .sort(),
    ).toEqual(['other', 'scenarios']);
  });

  it('a corrupt cache is rejected by V8, the command works, and the cache is written again', async () => {
    const dir = cacheDir();
    const env = { ...process.env, CSP_MOCK_COMPILE_CACHE: dir };
    await output(BIN, ['scenarios'], env);
    const file = join(dir, cacheFiles(dir)[0]!);
    const garbage = Buffer.alloc(statSync(file).size, 0x5a);
    writeFileSync(file, garbage);
    expect(await output(BIN, ['scenarios'], env)).toMatch(/default/);
    expect(readFileSync(file).equals(garbage)).toBe(false);
  });

  it('an unwritable cache folder, or CSP_MOCK_COMPILE_CACHE=off, only costs the cache', async () => {
    const dir = cacheDir();
    chmodSync(dir, 0o500);
    const readOnly = await output(BIN, ['scenarios'], { ...process.env, CSP_MOCK_COMPILE_CACHE: dir });
    expect(readOnly).toMatch(/default/);
    if (process.getuid?.() !== 0) expect(cacheFiles(dir)).toEqual([]);
    const off = await output(BIN, ['scenarios'], { ...process.env, CSP_MOCK_COMPILE_CACHE: 'off' });
    expect(off).toBe(readOnly);
  });
});
