import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readDurableState } from '../../../src/storage/state-log.js';
import { killServersAfterEach, serve, ServeProcess } from '../../helpers/cli.js';
import { apply, matches, readBack, seededRandom, Worker, type Files } from '../../helpers/crash-workload.js';
import { HttpCloud } from '../../helpers/http-cloud.js';

const SEED = Number(process.env['CRASH_SEED'] ?? 20261122);
const ROUNDS = 5;
const WORKERS = 4;

/** What a SIGKILL left on disk must load, and every file it names must have its bytes. */
async function checkStateOnDisk(dataFile: string): Promise<void> {
  const state = (await readDurableState(dataFile))?.state;
  expect(state, 'the state (snapshot + log) loads').toBeDefined();
  for (const node of Object.values(state!.nodes)) {
    if (node.kind !== 'file') continue;
    const size = node.blobId ? (await stat(join(`${dataFile}.blobs`, node.blobId))).size : 0;
    expect(size, `blob of ${node.name}`).toBe(node.bytes);
  }
}

describe('crash safety of --data (soak: SIGKILL at random moments, compacting often)', () => {
  killServersAfterEach();
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'csp-mock-crash-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it(
    `loads after every kill with each acknowledged change kept and every file whole (seed ${SEED})`,
    { timeout: 60_000 },
    async () => {
      const random = seededRandom(SEED);
      const dataFile = join(dir, 'state.json');
      // A small compaction bound: snapshots are written (and killed) while the workers' commits go on.
      const args = ['--empty', '--data', dataFile, '--compact-after', '32768'];
      let server = await serve(args);
      let cloud = new HttpCloud(server.url);
      const root = await cloud.rootPath();
      const workers: Worker[] = [];
      for (let i = 0; i < WORKERS; i++)
        workers.push(new Worker(i, await cloud.createContainer(root, `worker-${i}`), random));
      let killedDuringWork = 0;

      for (let round = 0; round < ROUNDS; round++) {
        const running = workers.map((w) => w.run(cloud));
        // On a loaded machine 500 ms may pass before the first answer: each round kills after work was acknowledged.
        await Promise.race([
          ...workers.map((w) => w.nextAcknowledged()),
          Promise.all(running).then(() => {
            throw new Error(`round ${round}: every worker stopped before the server acknowledged any work`);
          }),
        ]);
        await new Promise((r) => setTimeout(r, Math.floor(random() * 500)));
        server.child.kill('SIGKILL');
        await server.exited;
        await Promise.all(running);
        killedDuringWork += workers.filter((w) => w.pending).length;
        // Every client stopped because the connection broke, never on an error answer from the server.
        for (const w of workers) expect(w.stopReason, `round ${round}, seed ${SEED}`).toMatch(/^fetch failed/);
        await checkStateOnDisk(dataFile);
        if (round % 3 === 1) {
          // A kill during start-up (reading, sweeping orphans) must leave a loadable state too.
          const starting = new ServeProcess(['serve', '--port', '0', ...args]);
          await new Promise((r) => setTimeout(r, Math.floor(random() * 150)));
          starting.child.kill('SIGKILL');
          await starting.exited;
          await checkStateOnDisk(dataFile);
        }

        server = await serve(args);
        cloud = new HttpCloud(server.url);
        const blobs = await readdir(`${dataFile}.blobs`);
        const referenced = new Set(
          Object.values((await readDurableState(dataFile))!.state.nodes)
            .map((n) => n.blobId)
            .filter(Boolean),
        );
        expect(
          blobs.filter((b) => !referenced.has(b)),
          'orphans and temp files dropped at start',
        ).toEqual([]);

        for (const worker of workers) {
          const found = await readBack(cloud, worker);
          const candidates: Files[] = [worker.files];
          const op = worker.pending;
          if (op?.kind === 'upload') {
            const got = found.get(op.name);
            if (got) candidates.push(apply(worker.files, op, got.path));
          } else if (op) {
            candidates.push(apply(worker.files, op));
          }
          const match = candidates.find((c) => matches(found, c));
          const why = `round ${round}, seed ${SEED}, stopped by "${worker.stopReason}": expected ${[...worker.files.keys()].join(',')} (+ ${JSON.stringify(op)}), found ${[...found.keys()].join(',')}`;
          expect(match, why).toBeDefined();
          worker.files = match!;
          worker.pending = undefined;
        }
      }
      // A soak: where the kills landed is luck, so it is reported, not asserted. The kills at each
      // exact step are failpoint-kills.test.ts.
      console.log(`crash soak: ${ROUNDS} kills, ${killedDuringWork} requests under way when they landed`);
    },
  );
});
