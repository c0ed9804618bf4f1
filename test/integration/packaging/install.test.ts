// Installs the package as a user would (tarball, folder of a fresh clone, the clone packed after its prepare as a
// git URL install makes it) into scratch projects, then runs the bin with npx and loads the API with import and
// with require, from plain scripts, a default jest project and a vitest project. Needs npm and the registry
// (dependencies, jest, vitest, nock).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand, startCommand, type CommandResult } from '../../helpers/run-command.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const CONSUMERS = fileURLToPath(new URL('./consumers/', import.meta.url));
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
interface PackageJson {
  bin: Record<string, string>;
  devDependencies: Record<string, string>;
}
const DEV_DEPENDENCIES = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as PackageJson).devDependencies;
const scratch: string[] = [];
/** A test waits for its install, which runs beside the other four: as long as the slowest may take on a busy machine. */
const INSTALLED_WITHIN = 420_000;

function scratchProject(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `csp-mock-consumer-${name}-`));
  scratch.push(dir);
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: `consumer-${name}`, version: '1.0.0', private: true }),
  );
  return dir;
}

interface Installed {
  project: string;
  install: CommandResult;
}

/** `npm install specs` in a new scratch project. */
async function installedProject(name: string, specs: string[]): Promise<Installed> {
  const project = scratchProject(name);
  return { project, install: await runCommand('npm', ['install', ...specs, ...NPM_FLAGS], { cwd: project }) };
}

/** A fresh clone of this checkout (no node_modules, no dist), installed as a folder: npm runs its prepare there. */
async function installedClone(): Promise<Installed & { clone: string; cloned: CommandResult }> {
  const clone = mkdtempSync(join(tmpdir(), 'csp-mock-clone-'));
  scratch.push(clone);
  const cloned = await runCommand('git', ['clone', '--quiet', REPO, clone]);
  return { clone, cloned, ...(await installedProject('folder', [clone])) };
}

/** `npm pack` in `folder` (already built: no prepare again): the path of the tarball. */
async function packed(folder: string): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), 'csp-mock-pack-'));
  scratch.push(out);
  const pack = await runCommand('npm', ['pack', '--ignore-scripts', '--pack-destination', out, '--loglevel=error'], {
    cwd: folder,
  });
  expect(pack.code, pack.stderr).toBe(0);
  return join(out, readdirSync(out).find((f) => f.endsWith('.tgz'))!);
}

/** The project of an install that succeeded. */
async function installed(installing: Promise<Installed>): Promise<string> {
  const { project, install } = await installing;
  expect(install.code, install.stderr).toBe(0);
  return project;
}

/** This process's environment without the test runner's own variables (a nested jest or vitest reads them). */
function consumerEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(VITEST|JEST|NODE_OPTIONS$|FORCE_COLOR$)/.test(name)),
  );
  return { ...env, NO_COLOR: '1' };
}

/** A consumer file of ./consumers copied into `project` under the name its runner looks for. */
function addConsumerFile(project: string, fixture: string, name: string): void {
  mkdirSync(dirname(join(project, name)), { recursive: true });
  copyFileSync(join(CONSUMERS, fixture), join(project, name));
}

/** What the scripts of ./consumers print after using the mock: one request, then a reset. */
const USED_AND_RESET = /status 200\njournal 1\nafter reset 0\n/;
const NOCK_LINE =
  'interceptCloud: interceptCloud needs the nock package (an optional peer dependency of csp-mock): npm install --save-dev nock';

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

describe('installing csp-mock into a scratch project', { timeout: INSTALLED_WITHIN }, () => {
  let tarball = '';
  /**
   * Three installs, started at once: the tarball of this checkout into a project with both test runners and nock
   * (jest's test needs nock; vitest brings neither nock nor @playwright/test); the folder of a fresh clone, where
   * npm runs prepare (which installs the build tools there and builds: the one build of this file); and that
   * clone packed once prepared, alone in a project. The last is what a git URL install makes (npm clones, runs
   * prepare with the tools installed, packs, installs the tarball), and proves the package works with neither
   * optional peer installed. Each test awaits its own install and checks it.
   */
  let installs: Record<'runners' | 'preparedClone', Promise<Installed>> & {
    folder: Promise<Installed & { clone: string; cloned: CommandResult }>;
  };
  beforeAll(async () => {
    // `npm test` has just built dist/, so pack without running prepare again.
    tarball = await packed(REPO);
    const folder = installedClone();
    installs = {
      runners: installedProject('runners', [
        tarball,
        `vitest@${DEV_DEPENDENCIES['vitest']}`,
        'jest@30',
        `nock@${DEV_DEPENDENCIES['nock']}`,
      ]),
      folder,
      preparedClone: folder.then(async ({ clone, install }) => {
        expect(install.code, install.stderr).toBe(0);
        return installedProject('prepared-clone', [await packed(clone)]);
      }),
    };
    // Each test awaits its own; none is left unhandled if a test before it fails.
    for (const installing of Object.values(installs)) installing.catch(() => undefined);
  }, 60_000);
  // Removing three installed node_modules trees takes longer than the default 10 s on a busy machine.
  afterAll(async () => {
    await Promise.all(scratch.map((dir) => rm(dir, { recursive: true, force: true })));
  }, 120_000);

  it('the tarball ships dist, scenarios (with the schema), recordings, LICENSE and README, and nothing else', async () => {
    const listing = await runCommand('tar', ['tzf', tarball]);
    const files = listing.stdout
      .trim()
      .split('\n')
      .map((f) => f.replace(/^package\//, ''));
    const top = [...new Set(files.map((f) => f.split('/')[0]))].sort();
    expect(top).toEqual(['LICENSE', 'README.md', 'dist', 'package.json', 'recordings', 'scenarios', 'src', 'test']);
    // The READMEs' links point at these: src/ and test/ ship only what the documents link to.
    expect(files.filter((f) => f.startsWith('src/')).every((f) => f.endsWith('/README.md'))).toBe(true);
    expect(files.filter((f) => f.startsWith('test/')).sort()).toEqual([
      'test/README.md',
      'test/screenshots/inspector.png',
    ]);
    // Every relative link (and image) of every packed markdown file resolves inside the tarball.
    const unpacked = mkdtempSync(join(tmpdir(), 'csp-mock-unpacked-'));
    scratch.push(unpacked);
    expect((await runCommand('tar', ['xzf', tarball, '-C', unpacked])).code).toBe(0);
    const dead: string[] = [];
    for (const doc of files.filter((f) => f.endsWith('.md'))) {
      const text = readFileSync(join(unpacked, 'package', doc), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const path = target!.split('#')[0]!;
        if (path === '' || /^[a-z]+:/.test(path)) continue;
        if (!existsSync(join(unpacked, 'package', dirname(doc), path))) dead.push(`${doc}: ${target}`);
      }
    }
    expect(dead).toEqual([]);
    expect(files).toContain('scenarios/scenario.schema.json');
    // The command ships once, as it runs: package.json's bin and the bundle it loads, not tsc's modules it was made from.
    const bin = (JSON.parse(readFileSync(join(unpacked, 'package', 'package.json'), 'utf8')) as PackageJson).bin;
    expect(files.filter((f) => f.startsWith('dist/cli/'))).toEqual([bin['csp-mock']]);
    expect(files).toContain('dist/bundle/csp-mock.js');
    expect(files).toContain('dist/index.d.ts');
    expect(files).toContain('dist/cjs/index.cjs');
    expect(files).toContain('dist/cjs/index.d.cts');
    expect(files.filter((f) => f.startsWith('dist/tools/') || f.endsWith('.map') || f.includes('/example/'))).toEqual(
      [],
    );
  });

  it('from the tarball: npx csp-mock, import and require work', async () => {
    const project = await installed(installs.runners);
    await usesTheInstall(project);

    // The CommonJS build has types of its own: a CommonJS TypeScript project type-checks against them
    // without skipLibCheck: the declarations name express's types, and @types/express comes with csp-mock.
    writeFileSync(
      join(project, 'typed.cts'),
      [
        "import { startMock, DomainError, type RunningMock } from 'csp-mock';",
        'export async function journalOf(mock: RunningMock): Promise<number> {',
        '  return (await mock.requests()).length;',
        '}',
        'export const started = startMock;',
        'export const isDomainError = (err: unknown): boolean => err instanceof DomainError;',
        '',
      ].join('\n'),
    );
    const typed = await runCommand(
      process.execPath,
      [
        join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'),
        ...[
          '--noEmit',
          '--strict',
          '--skipLibCheck',
          'false',
          '--module',
          'node16',
          '--moduleResolution',
          'node16',
          'typed.cts',
        ],
        ...['--types', 'node', '--typeRoots', join(REPO, 'node_modules', '@types')],
      ],
      { cwd: project },
    );
    expect(typed.stdout + typed.stderr).toBe('');
    expect(typed.code).toBe(0);
  });

  it('a default jest project (CommonJS) requires csp-mock: start, a request, reset, stop; interceptCloud with nock installed', async () => {
    const project = await installed(installs.runners);
    // Each runner runs its own folder: by default each would take the other's file for one of its own.
    addConsumerFile(project, 'jest-suite.cjs', 'jest-tests/mock.test.js');
    const run = await runCommand(
      process.execPath,
      [join(project, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci', 'jest-tests/'],
      { cwd: project, env: consumerEnv() },
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Tests: +2 passed, 2 total/);
  });

  it('a vitest project imports csp-mock: start, a request, reset, stop', async () => {
    const project = await installed(installs.runners);
    addConsumerFile(project, 'vitest-suite.mjs', 'vitest-tests/mock.test.mjs');
    const run = await runCommand(
      process.execPath,
      [join(project, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'vitest-tests/'],
      { cwd: project, env: consumerEnv() },
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Tests +1 passed \(1\)/);
  });

  it('from the folder of a fresh clone (no node_modules, no dist): prepare installs the build tools there, builds, and npx csp-mock, import and require work', async () => {
    const { cloned } = await installs.folder;
    expect(cloned.code, cloned.stderr).toBe(0);
    await usesTheInstall(await installed(installs.folder));
  });

  it('packed from a fresh clone after its prepare, as a git URL install makes it: npx csp-mock, import and require work, with neither optional peer installed', async () => {
    const project = await installed(installs.preparedClone);
    await usesTheInstall(project);

    // A plain CommonJS script and an ES module script: start, one request, reset, stop.
    // nock is an optional peer dependency: not installed with csp-mock, and interceptCloud says how to add it.
    expect(existsSync(join(project, 'node_modules', 'nock'))).toBe(false);
    // @playwright/test too: only csp-mock/playwright loads it, so these scripts prove csp-mock works without it.
    expect(existsSync(join(project, 'node_modules', '@playwright', 'test'))).toBe(false);
    for (const [fixture, name] of [
      ['commonjs-script.cjs', 'use.cjs'],
      ['esm-script.mjs', 'use.mjs'],
    ] as const) {
      addConsumerFile(project, fixture, name);
      const run = await runCommand(process.execPath, [name], { cwd: project });
      expect(run.stdout, run.stderr).toMatch(USED_AND_RESET);
      expect(run.stdout.trim().split('\n').at(-1)).toBe(NOCK_LINE);
    }
  });
});
