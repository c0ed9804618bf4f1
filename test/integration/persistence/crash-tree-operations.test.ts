import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/scenarios/seeded-random.js';
import type { NodeRecord, StateData } from '../../../src/domain/model.js';
import { FAILPOINTS_ENV, type FailpointName } from '../../../src/storage/failpoints.js';
import { readDurableState } from '../../../src/storage/state-log.js';
import { BASIC_DEMO, killServersAfterEach, serve, type ServeProcess } from '../../helpers/cli.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const SEED = Number(process.env['CRASH_SEED'] ?? 20261122);

/** Live nodes below (and with) the node named `name` under demo's root, or 0 when there is none. */
function subtreeSize(state: StateData, name: string): number {
  const kids = new Map<string, NodeRecord[]>();
  for (const node of Object.values(state.nodes)) {
    if (node.parentId === null || node.recycled !== null) continue;
    const list = kids.get(node.parentId) ?? [];
    list.push(node);
    kids.set(node.parentId, list);
  }
  const top = (kids.get(state.users['demo']!.rootId) ?? []).find((n) => n.name === name);
  if (!top) return 0;
  let count = 0;
  for (const queue = [top]; queue.length > 0; count++) queue.push(...(kids.get(queue.pop()!.id) ?? []));
  return count;
}

/** A seed tree: `folders` folders of `files` empty files, names starting with `prefix`. */
const seedTree = (prefix: string, folders: number, files: number): unknown[] =>
  Array.from({ length: folders }, (_, d) => ({
    container: `${prefix}${d}`,
    children: Array.from({ length: files }, (_, f) => ({ file: `${prefix}${d}-${f}.txt` })),
  }));

async function durable(file: string): Promise<StateData> {
  const loaded = await readDurableState(file);
  expect(loaded, 'the state (snapshot + log) loads').toBeDefined();
  return loaded!.state;
}

/** The server with a failpoint armed: it kills itself exactly there (see src/storage/failpoints.ts). */
const armed = (point: FailpointName, hit: number): { env: NodeJS.ProcessEnv } => ({
  env: { ...process.env, [FAILPOINTS_ENV]: `${point}:kill@${hit}` },
});

/**
 * Each round kills the server at a failpoint inside the operation, so every round is a kill in the
 * middle of it; the last rounds kill at a random moment as a soak (their timing decides nothing).
 */
describe(
  'SIGKILL during tree operations with --data (COPY, scenario seed), compacting often',
  { timeout: 120_000 },
  () => {
    killServersAfterEach();
    const tmp = useTempDir('crash-tree');

    it(`keeps each COPY of a 400-node tree whole or absent, and every acknowledged one (seed ${SEED})`, async () => {
      const random = seededRandom(SEED);
      const dataFile = join(tmp.path, 'state.json');
      const scenario = join(tmp.path, 'tree.json');
      await writeFile(
        scenario,
        JSON.stringify({
          name: 'crash-tree',
          description: 'a tree to copy',
          seed: { tree: [{ container: 'tree', children: seedTree('t', 8, 48) }] },
        }),
      );
      const args = ['--empty', '--data', dataFile, '--scenario', scenario, '--compact-after', '65536'];
      const treeSize = subtreeSize(
        await (async () => {
          const first = await serve(args);
          await first.stop('SIGTERM');
          return durable(dataFile);
        })(),
        'tree',
      );
      expect(treeSize).toBe(1 + 8 + 8 * 48);
      const acked = new Set<string>();
      let killedMidCopy = 0;
      const ROUNDS = 5;
      const SOAK_ROUNDS = 2;
      for (let round = 0; round < ROUNDS + SOAK_ROUNDS; round++) {
        const soak = round >= ROUNDS;
        // The first rounds stop in the middle of the n-th COPY (prepared, not committed), n from the seed.
        const server = await serve(
          args,
          soak ? {} : armed('copy-prepared-before-commit', 1 + Math.floor(random() * 4)),
        );
        const lanes = [0, 1].map((lane) => copyUntilKilled(server, `copy-${lane}`, acked));
        if (soak) {
          await new Promise((r) => setTimeout(r, 100 + Math.floor(random() * 600)));
          await server.stop('SIGKILL');
        }
        expect((await server.exited).signal).toBe('SIGKILL');
        const pending = (await Promise.all(lanes)).filter(Boolean).length;
        if (pending > 0) killedMidCopy++;
        const state = await durable(dataFile);
        for (const lane of ['copy-0', 'copy-1']) {
          const size = subtreeSize(state, lane);
          const why = `round ${round}, seed ${SEED}, ${lane}`;
          if (acked.has(lane)) expect(size, `${why}: acknowledged, whole`).toBe(treeSize);
          else expect([0, treeSize], `${why}: whole or absent`).toContain(size);
        }
        expect(subtreeSize(state, 'tree')).toBe(treeSize);
      }
      expect(killedMidCopy, 'every armed kill landed while a COPY was under way').toBeGreaterThanOrEqual(ROUNDS);
      expect(acked.size).toBeGreaterThan(0);
    });

    it(`leaves the old state or the whole new seed after a kill during a scenario switch, never a mix (seed ${SEED})`, async () => {
      const random = seededRandom(SEED + 1);
      const dataFile = join(tmp.path, 'state.json');
      // Inline definitions: the admin API takes a scenario by catalogue name or as a definition.
      const seeds = ['a', 'b'].map((prefix) =>
        JSON.stringify({
          name: `seed-${prefix}`,
          description: 'a big seed',
          seed: { tree: seedTree(prefix, 10, 300) },
        }),
      );
      const args = ['--empty', '--data', dataFile, '--compact-after', '65536'];
      const namesOf = (state: StateData): string => {
        const names = new Set(
          Object.values(state.nodes)
            .filter((n) => n.kind === 'file')
            .map((n) => n.name[0]),
        );
        return [...names].sort().join('');
      };
      const files = (state: StateData): number => Object.values(state.nodes).filter((n) => n.kind === 'file').length;
      // One switch to the end.
      let server = await serve(args);
      expect((await switchTo(server, seeds[0]!)).status).toBe(200);
      await server.stop('SIGKILL');
      let expected = 'a';
      expect(namesOf(await durable(dataFile))).toBe('a');
      // Every step of a switch that touches the disk, in order; then rounds killed at a random moment (a soak).
      const points: FailpointName[] = [
        'switch-blobs-before-replace',
        'snapshot-temp-before-rename',
        'switch-snapshot-before-log-cut',
        'log-rewrite-before-rename',
      ];
      const SOAK_ROUNDS = 2;
      let killedMidSwitch = 0;
      for (let round = 0; round < points.length + SOAK_ROUNDS; round++) {
        const point = points[round];
        server = await serve(args, point ? armed(point, 1) : {});
        const target = round % 2 === 0 ? 'b' : 'a';
        const answer = switchTo(server, seeds[target === 'a' ? 0 : 1]!).then(
          (r) => r.status,
          () => 'killed' as const,
        );
        if (!point) {
          await new Promise((r) => setTimeout(r, Math.floor(random() * 1500)));
          await server.stop('SIGKILL');
        }
        const outcome = await answer;
        expect((await server.exited).signal).toBe('SIGKILL');
        const state = await durable(dataFile);
        const why = `round ${round}, seed ${SEED}, switch to ${target} ${outcome}${point ? ` killed at ${point}` : ''}`;
        if (outcome === 200) expect(namesOf(state), why).toBe(target);
        else {
          killedMidSwitch++;
          expect([expected, target], why).toContain(namesOf(state));
        }
        if (point === 'switch-blobs-before-replace') expect(namesOf(state), `${why}: not replaced yet`).toBe(expected);
        if (point === 'switch-snapshot-before-log-cut') expect(namesOf(state), `${why}: replaced`).toBe(target);
        expect(files(state), `${why}: the whole seed`).toBe(3000);
        expected = namesOf(state);
      }
      expect(killedMidSwitch, 'every armed kill landed while a switch was under way').toBeGreaterThanOrEqual(
        points.length,
      );
    });
  },
);

/** COPY /dav/tree over /dav/`name` (Overwrite: T) until the server dies; true when one was in flight. */
async function copyUntilKilled(server: ServeProcess, name: string, acked: Set<string>): Promise<boolean> {
  for (;;) {
    try {
      const res = await fetch(`${server.url}/dav/tree`, {
        method: 'COPY',
        headers: {
          Authorization: BASIC_DEMO,
          Destination: `${server.url}/dav/${name}`,
          Overwrite: 'T',
          Depth: 'infinity',
        },
      });
      if (res.status !== 201 && res.status !== 204) throw new Error(`COPY answered ${res.status}: ${await res.text()}`);
      acked.add(name);
    } catch (err) {
      if ((err as Error).message.startsWith('COPY answered')) throw err;
      return true;
    }
  }
}

function switchTo(server: ServeProcess, definition: string): Promise<Response> {
  return fetch(`${server.url}/__admin/scenario`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: definition,
  });
}
