// What explore refuses and what it never touches: a mock not its own, a folder that is not empty or holds
// the current one, a hung client, a bad repro bundle (one line naming the field), links left in the folder.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, truncate, writeFile } from 'node:fs/promises';
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

describe('explore refuses hostile files and values', () => {
  it('a clock jump that is not a duration (1e20, "NaN") or past the clock\'s range, naming the step', async () => {
    for (const [clock, message] of [
      [1e20, 'replay: steps[1].clock: must be a duration such as "90s", "2d" or "-1h" (got 100000000000000000000)'],
      ['NaN', 'replay: steps[1].clock: must be a duration such as "90s", "2d" or "-1h" (got "NaN")'],
      ['999999w', 'replay: steps[1].clock: "999999w" is longer than the clock\'s whole range'],
    ] as const) {
      const error = (await explore({ client: quietClient, dir, replay: bundle([{ pass: {} }, { clock }]) }).catch(
        (e: Error) => e,
      )) as Error;
      expect(error.message).toContain(message);
    }
    // Each jump is within range, their sum is not: past 9999 (and past what a Date can hold, were it not refused).
    const jumps = Array.from({ length: 40 }, () => ({ clock: '99999w' }));
    const error = (await explore({ client: quietClient, dir, replay: bundle(jumps) }).catch((e: Error) => e)) as Error;
    expect(error.message).toBe(
      'steps[4].clock: "99999w" takes the mock\'s clock outside its range (1970 to the end of 9999)',
    );
    const back = (await explore({ client: quietClient, dir, replay: bundle([{ clock: '-99999w' }]) }).catch(
      (e: Error) => e,
    )) as Error;
    expect(back.message).toMatch(/^steps\[0\]\.clock: "-99999w" takes the mock's clock outside its range/);
  });

  it('a 50 MB bundle file is refused by its size before it is read; 8 MB of "[" by its depth before it is parsed', async () => {
    const big = join(root, 'big.json');
    await writeFile(big, '');
    await truncate(big, 50 * 1024 * 1024);
    await expect(explore({ client: quietClient, dir, replay: big })).rejects.toThrow(
      `${big}: 52428800 bytes, larger than a repro bundle may be (16777216)`,
    );
    const deep = join(root, 'deep.json');
    await writeFile(deep, `{"format": "csp-mock-explore-repro/1", "journal": ${'['.repeat(8 * 1024 * 1024)}`);
    await expect(explore({ client: quietClient, dir, replay: deep })).rejects.toThrow(
      `${deep}: nested deeper than 200 levels: not a repro bundle`,
    );
    // Brackets inside strings are text, not nesting.
    await writeFile(deep, JSON.stringify({ ...bundle([{ clock: '1h' }]), note: '['.repeat(1000) }));
    await expect(explore({ client: quietClient, dir, replay: deep, runs: 1 })).resolves.toMatchObject({ runs: 1 });
  });

  it('a pass timeout of 0, -1, NaN, 1e20 or past what setTimeout holds, naming passTimeoutMs', async () => {
    for (const passTimeoutMs of [0, -1, Number.NaN, 1e20, 2 ** 31])
      await expect(explore({ client: quietClient, dir, passTimeoutMs })).rejects.toThrow(
        `passTimeoutMs must be a whole number from 1 to 86400000, got ${passTimeoutMs}`,
      );
    expect(existsSync(dir)).toBe(false);
  });
});
