import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { BASIC } from './wire-client.js';

// `npm test` builds first, so the CLI runs as users run it.
const MAIN = fileURLToPath(new URL('../../../dist/cli/bin.js', import.meta.url));
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder with ./scenarios/mine.json and ./broken.json in it, used as the CLI's working directory. */
function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'csp-mock-cli-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'scenarios'));
  writeFileSync(
    join(dir, 'scenarios', 'mine.json'),
    JSON.stringify({
      description: 'my local scenario',
      extends: 'default',
      faults: [{ match: { method: 'GET', path: '/v2/account' }, respond: { status: 429 } }],
    }),
  );
  writeFileSync(
    join(dir, 'broken.json'),
    JSON.stringify({ faults: [{ match: { method: 'GET', path: '/v2' }, respond: { status: 500, colour: 'red' } }] }),
  );
  return dir;
}

/** Runs the CLI to completion (bounded) and collects its output. */
function run(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts `serve` and resolves with its base URL once it listens (and `lines`, what it printed by then). */
function serve(args: string[], cwd: string, lines: string[] = []): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0', ...args], { cwd });
    children.push(child);
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no "listening" line: ${out}`)), 10_000);
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      if (url) {
        clearTimeout(timer);
        lines.push(...out.split('\n'));
        resolve(url);
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

describe('the CLI: serve --scenario and csp-mock scenarios', () => {
  it('"scenarios" lists the built-in and the local scenarios with their descriptions', async () => {
    const { code, stdout } = await run(['scenarios'], workDir());
    expect(code).toBe(0);
    for (const name of [
      'default',
      'tag-objects-500',
      'observed',
      'empty',
      'slow-network',
      'flaky-uploads',
      'quota-exceeded',
      'expired-credentials',
    ]) {
      expect(stdout).toMatch(new RegExp(`^${name} +\\S`, 'm'));
    }
    expect(stdout).toMatch(/^mine +my local scenario \(.*scenarios\/mine\.json\)$/m);
  });

  it('serve --scenario NAME runs a built-in; --admin-token protects /__admin', async () => {
    const url = await serve(['--scenario', 'tag-objects-500', '--admin-token', 'tok'], workDir());
    const res = await fetch(`${url}/v2/tags/important/objects`, { headers: { Authorization: BASIC } });
    expect(res.status).toBe(500);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect((await fetch(`${url}/__admin/scenario`)).status).toBe(401);
    const admin = await fetch(`${url}/__admin/scenario`, { headers: { Authorization: 'Bearer tok' } });
    expect(((await admin.json()) as { name: string }).name).toBe('tag-objects-500');
  });

  it('serve --scenario NAME finds ./scenarios/NAME.json, and a PATH works too', async () => {
    const dir = workDir();
    const byName = await serve(['--scenario', 'mine'], dir);
    expect((await fetch(`${byName}/v2/account`, { headers: { Authorization: BASIC } })).status).toBe(429);
    const byPath = await serve(['--scenario', './scenarios/mine.json'], dir);
    expect((await fetch(`${byPath}/v2/account`, { headers: { Authorization: BASIC } })).status).toBe(429);
  });

  it("serve's start line names the logins a scenario's seed adds", async () => {
    const lines: string[] = [];
    await serve(
      ['--scenario', fileURLToPath(new URL('../../fixtures/scenarios/seeded.json', import.meta.url))],
      workDir(),
      lines,
    );
    expect(lines.find((l) => l.startsWith('  users:'))).toMatch(/users: +demo, alice/);
  });

  it('serve refuses a malformed scenario file at start, naming the file and the field', async () => {
    const dir = workDir();
    const { code, stderr } = await run(['serve', '--port', '0', '--scenario', 'broken.json'], dir);
    expect(code).toBe(1);
    expect(stderr).toContain(`${join(dir, 'broken.json')}: faults[0].respond.colour: is not a known field`);
    expect(stderr).not.toContain('    at ');
  });
});
