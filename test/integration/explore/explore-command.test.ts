// `csp-mock explore` as a user runs it: a shell command as the client, the text report and the exit code,
// the repro file and --replay, the options it refuses; in this process, its progress line and a full disk.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliContext } from '../../../src/cli/context.js';
import { runCli } from '../../../src/cli/run-cli.js';
import { CLI } from '../../helpers/cli.js';
import { runCommand } from '../../helpers/run-command.js';
import { mountSmallDisk } from '../../helpers/small-disk.js';

let root: string;
beforeEach(async () => void (root = await mkdtemp(join(tmpdir(), 'csp-mock-explore-cli-'))));
afterEach(() => rm(root, { recursive: true, force: true }));

const explore = (args: string[], env: NodeJS.ProcessEnv = process.env) =>
  runCommand(process.execPath, [CLI, 'explore', ...args], { cwd: root, env });

/** A one-way client: every file of the folder uploaded, nothing else (enough for a schedule of local creates). */
const UPLOADER =
  'cd "$CSP_SYNC_DIR" && find . -type f | while read -r f; do curl -sSf -T "$f" -u "$CSP_MOCK_USER:$CSP_MOCK_PASSWORD" "$CSP_MOCK_URL/dav/${f#./}"; done';

describe('csp-mock explore', () => {
  it('finds that a client doing nothing diverges, shrinks it to one step, writes the repro; --replay exits 1 until the client uploads', async () => {
    const found = await explore([
      '--client',
      'true',
      '--scenario',
      'empty',
      '--kinds',
      'local',
      '--runs',
      '3',
      '--seed',
      '4',
      '--steps',
      '5',
    ]);
    expect(found.code).toBe(1);
    expect(found.stdout).toContain(
      'explore: 3 runs of 5 steps from seed 4, client "true": found divergence in run 1 (seed 4)',
    );
    expect(found.stdout).toMatch(/shrunk from 5 steps to 1 in \d+ runs/);
    expect(found.stdout).toMatch(/ {2}1\. local create \/new-\d\.txt\n/);
    expect(found.stdout).toContain('repro: explore-repro-4.json');
    const bundle = JSON.parse(await readFile(join(root, 'explore-repro-4.json'), 'utf8')) as {
      steps: unknown[];
      finding: { kind: string };
    };
    expect(bundle.steps).toHaveLength(1);
    expect(bundle.finding.kind).toBe('divergence');

    const still = await explore(['--replay', 'explore-repro-4.json', '--client', 'true', '--runs', '2']);
    expect(still.stdout).toContain("explore --replay explore-repro-4.json: 2 of 2 runs found the bundle's divergence");
    expect(still.code).toBe(1);
    const fixed = await explore(['--replay', 'explore-repro-4.json', '--client', UPLOADER]);
    expect(fixed.stdout).toContain("explore --replay explore-repro-4.json: 0 of 1 run found the bundle's divergence");
    expect(fixed.code).toBe(0);
  });

  it('refuses --url, and a folder outside the current one unless --dir names it on the command line', async () => {
    const url = await explore(['--client', 'true', '--url', 'http://127.0.0.1:8080']);
    expect(url.code).toBe(1);
    expect(url.stderr).toBe(
      'csp-mock: explore starts a mock of its own (its clock and scenario belong to the run): it takes no --url\n',
    );
    const outside = join(tmpdir(), 'csp-mock-explore-elsewhere');
    const fromEnv = await explore(['--client', 'true'], { ...process.env, CSP_MOCK_DIR: outside });
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.stderr).toBe(
      `csp-mock: explore: ${outside} is outside the current folder: name it with --dir on the command line\n`,
    );
  });

  it('kills a hung client after --pass-timeout and reports it', async () => {
    const hung = await explore([
      '--client',
      'sleep 600',
      '--pass-timeout',
      '1s',
      '--runs',
      '1',
      '--steps',
      '1',
      '--no-shrink',
      '--json',
    ]);
    expect(hung.code).toBe(1);
    const report = JSON.parse(hung.stdout) as { failure: { kind: string; findings: Array<{ message: string }> } };
    expect(report.failure.kind).toBe('client-failure');
    expect(report.failure.findings[0]!.message).toContain('no exit after 1000 ms: killed');
  });
});

/** `csp-mock explore ARGS` in this process, in `root`, its progress drawn on a terminal-like stream. */
async function exploreHere(args: string[], isTTY = true) {
  const out = { stdout: '', stderr: '', progress: [] as string[] };
  const cli: CliContext = {
    argv: ['explore', ...args],
    stdout: (text) => void (out.stdout += text),
    stderr: (text) => void (out.stderr += text),
    stdoutLine: (line) => void (out.stdout += `${line}\n`),
    progressTo: { isTTY, write: (text: string) => out.progress.push(text) },
    exitCode: 0,
  };
  const cwd = process.cwd();
  process.chdir(root);
  try {
    const code = await runCli(cli.argv, cli);
    return { code, ...out };
  } finally {
    process.chdir(cwd);
  }
}

describe('csp-mock explore in this process', () => {
  it('draws a progress line on a terminal: run k of N, the step, findings so far, then the size of each shrinking try', async () => {
    const run = await exploreHere(
      ['--client', 'true', '--scenario', 'empty', '--kinds', 'local', '--runs', '3', '--seed', '4', '--steps', '5'],
      true,
    );
    expect(run.code).toBe(1);
    const lines = run.progress.map((text) => text.replace('\r\x1b[K', ''));
    expect(run.progress.every((text) => text.startsWith('\r\x1b[K'))).toBe(true);
    expect(lines).toContain('explore: run 1 of 3, step 0 of 5, 0 findings');
    expect(lines).toContain('explore: run 1 of 3, step 5 of 5, 0 findings');
    const shrinking = lines.filter((l) => l.includes('shrinking'));
    expect(shrinking[0]).toMatch(/^explore: run 1 of 3, shrinking to [1-4] steps \(try 1\), step 0, 1 finding$/);
    expect(shrinking.at(-1)).toMatch(/shrinking to 1 steps/);
    // The line is erased before the report: stdout holds no carriage return.
    expect(run.progress.at(-1)).toBe('\r\x1b[K');
    expect(run.stdout).not.toContain('\r');
    expect(run.stdout).toContain('found divergence in run 1 (seed 4)');
  });

  it('draws nothing where progress does not go to a terminal, nor with --json', async () => {
    const args = ['--client', 'true', '--scenario', 'empty', '--kinds', 'clock', '--runs', '1', '--steps', '2'];
    expect((await exploreHere(args, false)).progress).toEqual([]);
    expect((await exploreHere([...args, '--json'], true)).progress).toEqual([]);
  });

  it('refuses a --pass-timeout of 0, below 0, past a day or not a duration, naming it, before anything runs', async () => {
    for (const [given, message] of [
      ['0', 'csp-mock: --pass-timeout must be from 1ms to 24h (a hung pass is killed after it), got 0\n'],
      ['-5s', 'csp-mock: --pass-timeout must be from 1ms to 24h (a hung pass is killed after it), got -5s\n'],
      ['30d', 'csp-mock: --pass-timeout must be from 1ms to 24h (a hung pass is killed after it), got 30d\n'],
      ['1e20', 'csp-mock: --pass-timeout: "1e20" is not a duration'],
      ['9999999999d', 'csp-mock: --pass-timeout: "9999999999d" is longer than the clock\'s whole range'],
    ]) {
      const run = await exploreHere(['--client', 'true', `--pass-timeout=${given}`]);
      expect([run.code, run.stderr]).toEqual([1, expect.stringContaining(message!)]);
      expect(existsSync(join(root, 'explore-sync'))).toBe(false);
    }
  });

  it('a full disk while writing the repro file leaves no file, half or temporary, and says so after the report', async () => {
    const disk = await mountSmallDisk(64);
    try {
      // The disk is full to the last page.
      await writeFile(join(disk.path, 'filler'), Buffer.alloc(64 * 1024));
      const out = join(disk.path, 'repro.json');
      const run = await exploreHere([
        ...['--client', 'true', '--scenario', 'empty', '--kinds', 'local', '--runs', '1', '--seed', '4'],
        ...['--steps', '3', '--out', out],
      ]);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('found divergence in run 1 (seed 4)');
      expect(run.stdout).not.toContain('repro:');
      expect(run.stderr).toBe(
        `csp-mock: explore: cannot write the repro file ${out} (the disk is full); nothing was written\n`,
      );
      expect(await readdir(disk.path)).toEqual(['filler']);
    } finally {
      await disk.unmount();
    }
  });
});
