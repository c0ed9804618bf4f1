// `csp-mock explore` as a user runs it: a shell command as the client, the text report and the exit code,
// the repro file and --replay, and the options it refuses.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI } from '../../helpers/cli.js';
import { runCommand } from '../../helpers/run-command.js';

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
