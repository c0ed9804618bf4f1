// What explore refuses and what it never touches: a mock not its own, a folder that is not empty or holds
// the current one, a hung client, a bad repro bundle (one line naming the field), links left in the folder.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { explore, type ExploreOptions, type ReproBundle } from '../../../src/index.js';

let root: string;
let dir: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'csp-mock-explore-'));
  dir = join(root, 'sync');
});
afterEach(() => rm(root, { recursive: true, force: true }));

const quietClient = async (): Promise<void> => undefined;

/** A bundle as explore writes one, for a client that never syncs: its one local create diverges. */
const bundle = (steps: unknown[]): ReproBundle =>
  ({
    format: 'csp-mock-explore-repro/1',
    seed: 1,
    run: 1,
    user: 'demo',
    start: { name: 'explore-start', seed: { tree: [] }, clock: { frozen: '2025-01-01T00:00:00Z' } },
    steps,
    finding: { kind: 'divergence', message: 'x', paths: [] },
    findings: [],
    journal: [],
  }) as unknown as ReproBundle;

describe('explore refuses', () => {
  it('a mock that is not its own: it takes no url or mock', async () => {
    const options = { client: quietClient, dir, url: 'http://127.0.0.1:8080' } as ExploreOptions;
    await expect(explore(options)).rejects.toThrow('explore starts a mock of its own');
    expect(existsSync(dir)).toBe(false);
  });

  it('a folder that is not empty, and leaves what is in it', async () => {
    await mkdir(dir);
    await writeFile(join(dir, 'precious.txt'), 'keep me');
    await expect(explore({ client: quietClient, dir })).rejects.toThrow(/is not empty; explore clears its folder/);
    expect(await readFile(join(dir, 'precious.txt'), 'utf8')).toBe('keep me');
  });

  it('a folder that holds the current folder', async () => {
    await expect(explore({ client: quietClient, dir: dirname(process.cwd()) })).rejects.toThrow(
      /holds the current folder/,
    );
  });

  it('a bundle step whose path leaves the folder, naming the field in one line', async () => {
    const bad = bundle([{ pass: {} }, { local: { create: '/../../outside.txt', text: 'x' } }]);
    const error = await explore({ client: quietClient, dir, replay: bad }).catch((e: Error) => e);
    expect((error as Error).message).toBe(
      'replay: steps[1].local.create: must not hold an empty, "." or ".." segment or a NUL (got "/../../outside.txt")',
    );
    expect(existsSync(join(root, 'outside.txt'))).toBe(false);
  });

  it("a bundle pass whose fault is not the scenario format's, naming the field as the scenario loader does", async () => {
    const bad = bundle([{ pass: { faults: [{ match: { method: 'PUT', path: '/**' }, respond: { status: 'x' } }] } }]);
    const error = (await explore({ client: quietClient, dir, replay: bad }).catch((e: Error) => e)) as Error;
    expect(error.message).toMatch(/^steps\[0\]\.pass\.faults\[0\]\.respond\.status: /);
    expect(error.message).not.toContain('\n');
  });

  it('a bundle file that is not JSON or not a bundle, naming the file and the field', async () => {
    const file = join(root, 'repro.json');
    await writeFile(file, '{"format": "csp-mock-explore-repro/1", "seed": -1}');
    await expect(explore({ client: quietClient, dir, replay: file })).rejects.toThrow(
      `${file}: seed: must be a whole number >= 0`,
    );
    await writeFile(file, '{not json');
    await expect(explore({ client: quietClient, dir, replay: file })).rejects.toThrow(new RegExp(`^${file}: not JSON`));
  });
});

describe('explore and the client', () => {
  it('a hung command is killed after the pass timeout, with what it started, and reported as a client failure', async () => {
    const pidFile = join(root, 'sleep.pid');
    const report = await explore({
      client: `sleep 600 & echo $! > ${pidFile}; wait`,
      dir,
      runs: 1,
      steps: 1,
      passTimeoutMs: 300,
      shrink: false,
      kinds: ['clock'],
    });
    expect(report.failure?.kind).toBe('client-failure');
    expect(report.failure!.findings[0]!.message).toBe(
      'the first quiet pass (no faults, no edits) failed: no exit after 300 ms: killed',
    );
    const pid = (await readFile(pidFile, 'utf8')).trim();
    const state = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => 'gone');
    expect(state === 'gone' || state.split(' ')[2] === 'Z').toBe(true);
  });

  it('a link the client leaves in the folder is removed, never what it points to', async () => {
    const outside = join(root, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'keep.txt'), 'keep');
    const report = await explore({
      client: async (pass) => {
        await symlink(outside, join(pass.dir, 'link')).catch(() => undefined);
      },
      dir,
      runs: 2,
      steps: 1,
      shrink: false,
      kinds: ['clock'],
    });
    expect(report.failure?.findings.some((f) => f.paths.includes('/link'))).toBe(true);
    expect(await readFile(join(outside, 'keep.txt'), 'utf8')).toBe('keep');
    expect(await readdir(dir)).toEqual([]);
  });
});
