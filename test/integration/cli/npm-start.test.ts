// `npm start` compiles only when src/ changed since the last build, and stopping `npm start` or
// `npx csp-mock serve` by the pid of npm (SIGTERM to npm, not to node) stops the server.
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { refusesConnections } from '../../helpers/cli.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'csp-mock-npm-start-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }), 60_000);

/** npm or npx in `cwd`, with its output collected and a promise of its exit. */
function npmProcess(command: 'npm' | 'npx', args: string[], cwd: string) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_')));
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (output += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (output += c));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = new Promise<string>((resolve, reject) => {
    const check = (): void => {
      const match = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout.on('data', check);
    void exited.then(() => reject(new Error(`exited before listening: ${output}`)));
  });
  return { child, url, exited, output: () => output };
}

/** Waits (bounded) until nothing listens on the URL's port any more. */
async function stopsListening(url: string): Promise<boolean> {
  const port = Number(new URL(url).port);
  for (let i = 0; i < 100; i++) {
    if (await refusesConnections(port)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe('npm start and npx, stopped through npm', { timeout: 240_000 }, () => {
  it('npm start after a build does not compile again; after a source edit it does; SIGTERM to npm stops the server', async () => {
    // A copy of the repository with its built dist/ (times kept), so the test may edit and rebuild it.
    const copy = join(scratch, 'repo');
    for (const part of ['package.json', 'tsconfig.json', 'src', 'scenarios', 'recordings', 'test', 'dist'])
      cpSync(join(REPO, part), join(copy, part), { recursive: true, preserveTimestamps: true });
    symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'));
    // Copying made the folders new: the build stamp says dist/ was built after them, as it was from these files.
    const built = new Date();
    utimesSync(join(copy, 'dist', '.built'), built, built);

    const fresh = npmProcess('npm', ['start', '--', '-p', '0'], copy);
    const url = await fresh.url;
    expect(fresh.output()).not.toContain('compiling');
    fresh.child.kill('SIGTERM');
    await fresh.exited;
    expect(await stopsListening(url)).toBe(true);
    expect(fresh.output(), fresh.output()).toContain('SIGTERM: stopping');

    const edit = new Date(built.getTime() + 2000);
    utimesSync(join(copy, 'src', 'cli', 'serve.ts'), edit, edit);
    const edited = npmProcess('npm', ['start', '--', '-p', '0'], copy);
    const again = await edited.url;
    expect(edited.output()).toContain('csp-mock: compiling src/ into dist/');
    edited.child.kill('SIGTERM');
    await edited.exited;
    expect(await stopsListening(again)).toBe(true);
  });

  it('npx csp-mock serve stops when npx is sent SIGTERM (npm passes it to its shell only)', async () => {
    // A project with csp-mock installed as npm links a folder: node_modules/csp-mock and its .bin entry.
    const project = join(scratch, 'project');
    mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'p', version: '1.0.0', private: true }));
    symlinkSync(REPO, join(project, 'node_modules', 'csp-mock'));
    const bin = join(project, 'node_modules', '.bin', 'csp-mock');
    writeFileSync(bin, `#!/bin/sh\nexec node ${JSON.stringify(join(REPO, 'dist', 'cli', 'bin.js'))} "$@"\n`);
    chmodSync(bin, 0o755);

    const npx = npmProcess('npx', ['--no', 'csp-mock', 'serve', '-p', '0'], project);
    const url = await npx.url;
    npx.child.kill('SIGTERM');
    await npx.exited;
    expect(await stopsListening(url)).toBe(true);
  });
});
