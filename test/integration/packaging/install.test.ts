// Installs the package as a user would (tarball, folder, git URL) into a scratch project, then runs the
// bin with npx and loads the API with import and with require. Needs npm and the registry (dependencies).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand, startCommand } from '../../helpers/run-command.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
const scratch: string[] = [];

function scratchProject(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `csp-mock-consumer-${name}-`));
  scratch.push(dir);
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: `consumer-${name}`, version: '1.0.0', private: true }),
  );
  return dir;
}

async function npmInstall(project: string, spec: string): Promise<void> {
  const result = await runCommand('npm', ['install', spec, ...NPM_FLAGS], { cwd: project });
  expect(result.code, result.stderr).toBe(0);
}

/** What a user does right after installing: npx csp-mock, then the API from ESM and from CommonJS. */
async function usesTheInstall(project: string): Promise<void> {
  // The README's "$schema" line for a project's scenarios/*.json resolves to the shipped schema.
  mkdirSync(join(project, 'scenarios'), { recursive: true });
  const schemaRef = '../node_modules/csp-mock/scenarios/scenario.schema.json';
  expect(existsSync(join(project, 'scenarios', schemaRef))).toBe(true);
  writeFileSync(
    join(project, 'scenarios', 'mine.json'),
    JSON.stringify({ $schema: schemaRef, name: 'mine', faults: [] }),
  );
  const server = await startCommand(
    'npx',
    ['--no', 'csp-mock', 'serve', '--port', '0', '--scenario', 'mine'],
    /listening on http:\/\//,
    { cwd: project },
  );
  try {
    const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(server.line)![1]!;
    expect(server.output()).toMatch(/scenario: +mine \(.*scenarios\/mine\.json\)/);
    const res = await fetch(`${url}/dav/Documents/readme.txt`, {
      headers: { Authorization: `Basic ${btoa('demo:demo')}` },
    });
    expect(res.status).toBe(200);
  } finally {
    await server.stop();
  }
  const listed = await runCommand('npx', ['--no', 'csp-mock', 'scenarios'], { cwd: project });
  expect(listed.stdout).toMatch(/tag-objects-500/);

  const program = `const mock = await startMock({ scenario: 'tag-objects-500', mode: { kind: 'replay', recording: 'example-session' } });
    const res = await fetch(mock.url + '/v2', { headers: { Authorization: 'Basic ' + btoa('demo:demo'), 'X-Client-Specification': '2' } });
    console.log('status', res.status); await mock.close();`;
  const esm = await runCommand(
    process.execPath,
    ['--input-type=module', '-e', `import { startMock } from 'csp-mock'; ${program}`],
    { cwd: project },
  );
  expect(esm.stdout, esm.stderr).toContain('status 200');
  const cjs = await runCommand(
    process.execPath,
    ['-e', `const { startMock } = require('csp-mock'); (async () => { ${program} })();`],
    { cwd: project },
  );
  expect(cjs.stdout, cjs.stderr).toContain('status 200');
}

describe('installing csp-mock into a scratch project', () => {
  let tarball = '';
  beforeAll(async () => {
    // `npm test` has just built dist/, so pack without running prepare again.
    const out = mkdtempSync(join(tmpdir(), 'csp-mock-pack-'));
    scratch.push(out);
    const packed = await runCommand(
      'npm',
      ['pack', '--ignore-scripts', '--pack-destination', out, '--loglevel=error'],
      { cwd: REPO },
    );
    expect(packed.code, packed.stderr).toBe(0);
    tarball = join(out, readdirSync(out).find((f) => f.endsWith('.tgz'))!);
  }, 60_000);
  // Removing three installed node_modules trees takes longer than the default 10 s on a busy machine.
  afterAll(() => {
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('the tarball ships dist, scenarios (with the schema), recordings, LICENSE and README, and nothing else', async () => {
    const listing = await runCommand('tar', ['tzf', tarball]);
    const files = listing.stdout
      .trim()
      .split('\n')
      .map((f) => f.replace(/^package\//, ''));
    const top = [...new Set(files.map((f) => f.split('/')[0]))].sort();
    expect(top).toEqual(['LICENSE', 'README.md', 'dist', 'package.json', 'recordings', 'scenarios']);
    expect(files).toContain('scenarios/scenario.schema.json');
    expect(files).toContain('dist/cli/main.js');
    expect(files).toContain('dist/index.d.ts');
    expect(files.filter((f) => f.startsWith('dist/tools/') || f.endsWith('.map') || f.includes('/example/'))).toEqual(
      [],
    );
  });

  it('from the tarball: npx csp-mock, import and require work', async () => {
    const project = scratchProject('tarball');
    await npmInstall(project, tarball);
    await usesTheInstall(project);
  }, 120_000);

  it('from the folder of a fresh clone (no node_modules, no dist): prepare installs the build tools there, builds, and npx csp-mock, import and require work', async () => {
    const clone = mkdtempSync(join(tmpdir(), 'csp-mock-clone-'));
    scratch.push(clone);
    const cloned = await runCommand('git', ['clone', '--quiet', REPO, clone]);
    expect(cloned.code, cloned.stderr).toBe(0);
    const project = scratchProject('folder');
    await npmInstall(project, clone);
    await usesTheInstall(project);
  }, 300_000);

  it('from a git URL: prepare builds dist/ on install, then npx csp-mock, import and require work', async () => {
    const head = (await runCommand('git', ['rev-parse', 'HEAD'], { cwd: REPO })).stdout.trim();
    const project = scratchProject('git');
    await npmInstall(project, `git+file://${REPO.replace(/\/$/, '')}#${head}`);
    await usesTheInstall(project);
  }, 240_000);
});
