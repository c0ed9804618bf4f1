import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMock } from '../../../src/index.js';
import type { StateData } from '../../../src/domain/model.js';
import { FAILPOINTS, FAILPOINTS_ENV, type FailpointName } from '../../../src/storage/failpoints.js';
import { logFileOf } from '../../../src/storage/log-file.js';
import { stateTempFileOf } from '../../../src/storage/state-file.js';
import { readDurableState } from '../../../src/storage/state-log.js';
import { BASIC_DEMO, killServersAfterEach, serve, ServeProcess } from '../../helpers/cli.js';
import { useTempDir } from '../../helpers/temp-dir.js';

/**
 * Each test arms one failpoint in a `csp-mock serve --data` child, makes the request that reaches it,
 * and the child kills itself (SIGKILL) exactly there: no timer has to land in a window. Then the state
 * on disk is checked, and a restart must load it and answer as promised.
 */

const dav = (server: ServeProcess, path: string, init: RequestInit = {}): Promise<Response> =>
  fetch(`${server.url}/dav${path}`, { ...init, headers: { Authorization: BASIC_DEMO, ...init.headers } });

/** Starts the server with `point` armed (hit `hit`); the state file exists already (no start-up snapshot). */
function serveArmed(args: string[], point: FailpointName, hit = 1): Promise<ServeProcess> {
  return serve(args, { env: { ...process.env, [FAILPOINTS_ENV]: `${point}:kill@${hit}` } });
}

/** The request that reaches the failpoint: the connection breaks, and the process died of SIGKILL. */
async function killedBy(server: ServeProcess, request: Promise<Response>): Promise<void> {
  const outcome = await request.then(
    (r) => `answered ${r.status}`,
    () => 'connection broke',
  );
  expect(outcome).toBe('connection broke');
  expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });
}

const names = (state: StateData): string[] =>
  Object.values(state.nodes)
    .filter((n) => n.parentId !== null && n.recycled === null)
    .map((n) => n.name)
    .sort();

async function durable(file: string): Promise<StateData> {
  const loaded = await readDurableState(file);
  expect(loaded, 'the state (snapshot + log) loads').toBeDefined();
  return loaded!.state;
}

/** Blob files no node points at (a restart must have dropped them). */
async function strayBlobs(file: string): Promise<string[]> {
  const referenced = new Set(Object.values((await durable(file)).nodes).map((n) => n.blobId));
  return (await readdir(`${file}.blobs`)).filter((b) => !referenced.has(b));
}

describe('kills at named failpoints with --data: what survives a crash at each step', { timeout: 60_000 }, () => {
  killServersAfterEach();
  const tmp = useTempDir('failpoints');
  const dataFile = (): string => join(tmp.path, 'state.json');
  const args = (): string[] => ['--empty', '--data', dataFile()];

  /**
   * A first start and clean stop, so the state file exists before the armed run: in this process, which arms no
   * failpoint (the kills below need a child; this start does not).
   */
  async function prepared(compactAfterBytes?: number): Promise<void> {
    const first = await startMock({ seed: 'empty', data: dataFile(), compactAfterBytes });
    await first.close();
    expect(existsSync(dataFile())).toBe(true);
  }

  it('every failpoint name is reached by a test below (or, for a listing, in streaming/listing-failures.test.ts)', async () => {
    const text =
      (await readFile(new URL(import.meta.url), 'utf8')) +
      (await readFile(new URL('../streaming/listing-failures.test.ts', import.meta.url), 'utf8'));
    const unused = FAILPOINTS.filter((name) => !text.includes(`'${name}'`));
    expect(unused).toEqual([]);
  });

  it('killed after a commit is synced but before it is answered: the change is there after a restart', async () => {
    await prepared();
    const server = await serveArmed(args(), 'log-synced-before-answer');
    await killedBy(server, dav(server, '/synced', { method: 'MKCOL' }));
    expect(names(await durable(dataFile()))).toEqual(['synced']);
    const again = await serve(args());
    expect((await dav(again, '/synced/', { method: 'PROPFIND', headers: { Depth: '0' } })).status).toBe(207);
  });

  it('killed after a commit is written but before its fsync: the state loads, with the change whole or absent', async () => {
    await prepared();
    const server = await serveArmed(args(), 'log-written-before-sync');
    await killedBy(server, dav(server, '/unsynced', { method: 'MKCOL' }));
    expect([[], ['unsynced']]).toContainEqual(names(await durable(dataFile())));
    const again = await serve(args());
    expect((await dav(again, '/', { method: 'PROPFIND', headers: { Depth: '1' } })).status).toBe(207);
  });

  it('killed after an upload’s blob is durable but before its log record: no file, and the orphan blob is dropped at start', async () => {
    await prepared();
    const server = await serveArmed(args(), 'blob-durable-before-record');
    await killedBy(server, dav(server, '/orphan.bin', { method: 'PUT', body: Buffer.alloc(100_000, 7) }));
    expect(names(await durable(dataFile()))).toEqual([]);
    expect((await strayBlobs(dataFile())).length, 'the blob was durable when the kill landed').toBeGreaterThan(0);
    const again = await serve(args());
    expect((await dav(again, '/orphan.bin')).status).toBe(404);
    expect(await strayBlobs(dataFile())).toEqual([]);
  });

  /** Writes folders one by one until the armed point kills the server (the compaction bound is small). */
  async function writeUntilKilled(server: ServeProcess): Promise<string[]> {
    const acked: string[] = [];
    for (let i = 0; i < 400; i++) {
      const name = `d${String(i).padStart(3, '0')}`;
      const answer = await dav(server, `/${name}`, { method: 'MKCOL' }).catch(() => undefined);
      if (!answer) break;
      expect(answer.status).toBe(201);
      acked.push(name);
    }
    expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });
    return acked;
  }

  for (const point of [
    'compaction-snapshot-before-log-cut',
    'snapshot-temp-before-rename',
    'log-rewrite-before-rename',
  ] as const) {
    it(`killed during compaction (${point}): every acknowledged change is there after a restart`, async () => {
      const compact = ['--compact-after', '4096'];
      await prepared(4096);
      const server = await serveArmed([...args(), ...compact], point);
      const acked = await writeUntilKilled(server);
      expect(acked.length, 'compaction started within the writes').toBeLessThan(400);
      const state = await durable(dataFile());
      expect(names(state).filter((n) => !acked.includes(n)).length, 'at most the one unanswered').toBeLessThanOrEqual(
        1,
      );
      expect(acked.filter((n) => !names(state).includes(n))).toEqual([]);
      if (point === 'snapshot-temp-before-rename') expect(existsSync(stateTempFileOf(dataFile()))).toBe(true);
      if (point === 'log-rewrite-before-rename') expect(existsSync(`${logFileOf(dataFile())}.tmp`)).toBe(true);
      const again = await serve([...args(), ...compact]);
      const listing = await (await dav(again, '/', { method: 'PROPFIND', headers: { Depth: '1' } })).text();
      for (const name of acked) expect(listing).toContain(`/dav/${name}/`);
      expect(existsSync(stateTempFileOf(dataFile())), 'the temp snapshot is dropped at start').toBe(false);
    });
  }

  /** A scenario with a seed of files whose first letter is `prefix`, as the admin API takes it. */
  async function seedScenario(prefix: string): Promise<string> {
    const file = join(tmp.path, `seed-${prefix}.json`);
    await writeFile(
      file,
      JSON.stringify({
        name: `seed-${prefix}`,
        description: 'a seed',
        seed: {
          tree: [
            {
              container: `${prefix}-folder`,
              children: Array.from({ length: 20 }, (_, i) => ({ file: `${prefix}${i}.txt`, text: `${prefix} ${i}` })),
            },
          ],
        },
      }),
    );
    return readFile(file, 'utf8');
  }

  const switchTo = (server: ServeProcess, definition: string): Promise<Response> =>
    fetch(`${server.url}/__admin/scenario`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: definition,
    });

  it('killed in the middle of a scenario switch, its blobs written, the state not yet replaced: the old state, no stray blob', async () => {
    let server = await serve(args());
    expect((await switchTo(server, await seedScenario('a'))).status).toBe(200);
    await server.stop('SIGKILL');
    server = await serveArmed(args(), 'switch-blobs-before-replace');
    await killedBy(server, switchTo(server, await seedScenario('b')));
    const state = await durable(dataFile());
    expect(
      names(state)
        .filter((n) => n.endsWith('.txt'))
        .every((n) => n.startsWith('a')),
    ).toBe(true);
    expect(names(state)).toHaveLength(21);
    await serve(args());
    expect(await strayBlobs(dataFile())).toEqual([]);
  });

  it('killed in the middle of a scenario switch, the new snapshot durable, the old log not yet emptied: the whole new seed', async () => {
    let server = await serve(args());
    expect((await switchTo(server, await seedScenario('a'))).status).toBe(200);
    // Changes after the switch sit in the log, which the new snapshot supersedes.
    expect((await dav(server, '/after-a', { method: 'MKCOL' })).status).toBe(201);
    await server.stop('SIGKILL');
    server = await serveArmed(args(), 'switch-snapshot-before-log-cut');
    await killedBy(server, switchTo(server, await seedScenario('b')));
    const state = await durable(dataFile());
    expect(names(state)).toHaveLength(21);
    expect(
      names(state)
        .filter((n) => n.endsWith('.txt'))
        .every((n) => n.startsWith('b')),
    ).toBe(true);
    const again = await serve(args());
    expect(await (await dav(again, '/b-folder/b3.txt')).text()).toBe('b 3');
    expect((await dav(again, '/after-a', { method: 'PROPFIND', headers: { Depth: '0' } })).status).toBe(404);
  });

  it('killed in the middle of a COPY, prepared but not committed: the source whole, no copy', async () => {
    let server = await serve(args());
    expect((await dav(server, '/src', { method: 'MKCOL' })).status).toBe(201);
    for (let i = 0; i < 5; i++)
      expect((await dav(server, `/src/f${i}.txt`, { method: 'PUT', body: `file ${i}` })).status).toBe(201);
    await server.stop('SIGTERM');
    server = await serveArmed(args(), 'copy-prepared-before-commit');
    await killedBy(
      server,
      dav(server, '/src', {
        method: 'COPY',
        headers: { Destination: `${server.url}/dav/copy`, Depth: 'infinity' },
      }),
    );
    expect(names(await durable(dataFile()))).toEqual(['f0.txt', 'f1.txt', 'f2.txt', 'f3.txt', 'f4.txt', 'src']);
    const again = await serve(args());
    expect(await (await dav(again, '/src/f4.txt')).text()).toBe('file 4');
  });

  it('an unknown failpoint name in the environment stops the start with a message naming it', async () => {
    const server = new ServeProcess(['serve', '--port', '0', ...args()], {
      env: { ...process.env, [FAILPOINTS_ENV]: 'no-such-point:kill' },
    });
    const exit = await server.exited;
    expect(exit.code).not.toBe(0);
    expect(server.stderr.join('\n')).toContain('"no-such-point:kill" is not name:kill[@hit]');
  });
});
