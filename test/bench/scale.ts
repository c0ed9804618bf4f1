import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCount as runLoad, type CountResult as LoadResult } from './scale-load.js';
import { dav, timed } from './scale-requests.js';
import { ScaleServer } from './scale-server.js';
import { bigFolderListings } from './scale-big-folder.js';

/** Sizes of `npm run bench -- scale`, from BENCH_SCALE_* (the defaults are the targets). */
export interface ScaleConfig {
  objects: number;
  clients: number;
  folder: number;
  /** Budget of each create phase: it stops there and says how far it got. */
  seconds: number;
  copyNodes: number;
  seedFiles: number;
  locks: number;
  putSamples: number;
  /** Files in the folder listed by PROPFIND Depth 1 and /v2 contents. */
  bigFolder: number;
}

const ms = (v: number): string => `${v.toFixed(1)} ms`;
const rate = (r: LoadResult): string => `${r.perSecond.toFixed(0)}/s`;
const say = (line: string): void => console.log(line);

interface Growth {
  first: LoadResult;
  last: LoadResult;
  objects: number;
  seconds: number;
}

/** Empty files in folders of `folder` by `clients` keep-alive clients, until `objects` (or the budget). */
async function grow(url: string, cfg: ScaleConfig, prefix: string, objects: number): Promise<Growth> {
  await timed(url, dav.mkcol(`${prefix}warm`));
  await runLoad(url, (i) => dav.put(`${prefix}warm/w${i}`), Math.min(200, cfg.folder), cfg.clients);
  const started = Date.now();
  const batches: LoadResult[] = [];
  let made = 0;
  for (let b = 0; made < objects && (Date.now() - started) / 1000 < cfg.seconds; b++) {
    await timed(url, dav.mkcol(`${prefix}b${b}`));
    const size = Math.min(cfg.folder, objects - made);
    batches.push(await runLoad(url, (i) => dav.put(`${prefix}b${b}/f${i}`), size, cfg.clients));
    made += size + 1;
  }
  return {
    first: batches[0]!,
    last: batches[batches.length - 1]!,
    objects: made,
    seconds: (Date.now() - started) / 1000,
  };
}

async function createRates(cfg: ScaleConfig, mode: 'memory' | '--data', dir: string): Promise<ScaleServer> {
  const server = await ScaleServer.start(mode === 'memory' ? [] : ['--data', join(dir, 'state.json')]);
  const g = await grow(server.url, cfg, '', cfg.objects);
  const reached = g.objects < cfg.objects ? ` (budget of ${cfg.seconds} s reached at ${g.objects} objects)` : '';
  say(
    `create rate, ${mode}: ${rate(g.first)} at ~${Math.min(cfg.folder, g.objects)} objects, ${rate(g.last)} at ~${g.objects} objects` +
      ` = ${(g.first.perSecond / g.last.perSecond).toFixed(2)}x slower (target <= 1.5x); p99 ${ms(g.first.p99Ms)} -> ${ms(g.last.p99Ms)};` +
      ` ${g.objects} objects in ${g.seconds.toFixed(0)} s${reached}`,
  );
  say(`RSS, ${mode}, at ${g.objects} objects: ${server.rssMiB().toFixed(0)} MiB (target <= 400 MiB)`);
  return server;
}

async function restarts(cfg: ScaleConfig, server: ScaleServer, file: string): Promise<void> {
  const stopped = await server.stop('SIGTERM');
  const clean = await ScaleServer.start(['--data', file]);
  say(
    `restart, --data: clean stop (final snapshot) ${stopped.toFixed(2)} s; start to "listening" ${clean.startSeconds.toFixed(2)} s (target <= 3 s); RSS after start ${clean.rssMiB().toFixed(0)} MiB`,
  );
  await grow(clean.url, cfg, 'after-restart-', Math.min(cfg.folder, 1000));
  await clean.stop('SIGKILL');
  const killed = await ScaleServer.start(['--data', file]);
  say(
    `restart, --data, after SIGKILL (snapshot + log replay): start to "listening" ${killed.startSeconds.toFixed(2)} s`,
  );
  await killed.stop('SIGTERM');
}

/** A folders x files tree of about `nodes` nodes, copied whole while a probe asks GET /v2 at once and then every 20 ms. */
async function copyWhileServing(cfg: ScaleConfig, dir: string): Promise<void> {
  const server = await ScaleServer.start(['--data', join(dir, 'copy.json')]);
  try {
    const folders = Math.max(1, Math.round(Math.sqrt(cfg.copyNodes)));
    const perFolder = Math.max(1, Math.floor((cfg.copyNodes - 1) / folders) - 1);
    await timed(server.url, dav.mkcol('tree'));
    for (let d = 0; d < folders; d++) await timed(server.url, dav.mkcol(`tree/d${d}`));
    await runLoad(
      server.url,
      (i) => dav.put(`tree/d${i % folders}/f${Math.floor(i / folders)}`),
      folders * perFolder,
      cfg.clients,
    );
    const nodes = 1 + folders + folders * perFolder;
    const probes: number[] = [];
    let done = false;
    const copy = timed(server.url, dav.copy(server.url, 'tree', 'tree-copy')).finally(() => (done = true));
    await new Promise((r) => setImmediate(r));
    while (!done) {
      probes.push(await timed(server.url, dav.entry()));
      await new Promise((r) => setTimeout(r, 20));
    }
    const copyMs = await copy;
    probes.sort((a, b) => a - b);
    const worst = probes[probes.length - 1] ?? 0;
    say(
      `COPY of a ${nodes}-node tree (--data): ${ms(copyMs)}; ${probes.length} GET /v2 sent meanwhile, median ${ms(probes[Math.floor(probes.length / 2)] ?? 0)}, worst ${ms(worst)} (target <= 200 ms)`,
    );
  } finally {
    await server.stop();
  }
}

/** Switches to a scenario whose seed holds `seedFiles` empty files in folders of `folder`. */
async function seeding(cfg: ScaleConfig, dir: string): Promise<void> {
  const folders = Math.ceil(cfg.seedFiles / cfg.folder);
  const tree = Array.from({ length: folders }, (_, d) => ({
    container: `seed-${d}`,
    children: Array.from({ length: Math.min(cfg.folder, cfg.seedFiles - d * cfg.folder) }, (_, i) => ({
      file: `f${i}.txt`,
    })),
  }));
  // Inline: the admin API takes a scenario by catalogue name or as a definition, not by path.
  const scenario = JSON.stringify({ name: 'bench-seed', description: 'scale benchmark seed', seed: { tree } });
  for (const mode of ['memory', '--data'] as const) {
    const server = await ScaleServer.start(mode === 'memory' ? [] : ['--data', join(dir, 'seed.json')]);
    try {
      const took = await timed(server.url, {
        method: 'PUT',
        path: '/__admin/scenario',
        headers: { 'Content-Type': 'application/json' },
        body: Buffer.from(scenario),
        expect: 200,
      });
      say(`seeding ${cfg.seedFiles} files by a scenario switch, ${mode}: ${ms(took)} (target < 3 s)`);
    } finally {
      await server.stop();
    }
  }
}

/** PUT latency of new files with no lock, then with `locks` live locks on other files. */
async function putWithLocks(cfg: ScaleConfig): Promise<void> {
  const server = await ScaleServer.start([]);
  try {
    await timed(server.url, dav.mkcol('warm'));
    await runLoad(server.url, (i) => dav.put(`warm/w${i}`), 200, 8);
    await timed(server.url, dav.mkcol('plain'));
    const before = await runLoad(server.url, (i) => dav.put(`plain/f${i}`), cfg.putSamples, 8);
    await timed(server.url, dav.mkcol('locked'));
    await runLoad(server.url, (i) => dav.lock(`locked/l${i}`), cfg.locks, cfg.clients);
    await timed(server.url, dav.mkcol('plain-2'));
    const after = await runLoad(server.url, (i) => dav.put(`plain-2/f${i}`), cfg.putSamples, 8);
    say(
      `PUT latency (8 clients): no locks p50 ${ms(before.p50Ms)} mean ${ms(before.meanMs)}; ${cfg.locks} live locks p50 ${ms(after.p50Ms)} mean ${ms(after.meanMs)}` +
        ` = ${(after.meanMs / before.meanMs).toFixed(2)}x`,
    );
  } finally {
    await server.stop();
  }
}

/** `npm run bench -- scale`: the issue-8 figures, one line each as it is measured; loopback only. */
export async function runScale(cfg: ScaleConfig): Promise<void> {
  say(
    `csp-mock scale benchmark: ${cfg.objects} objects, ${cfg.clients} keep-alive clients, folders of ${cfg.folder} (node ${process.version})`,
  );
  const dir = await mkdtemp(join(tmpdir(), 'csp-mock-scale-'));
  const running: ScaleServer[] = [];
  try {
    const memory = await createRates(cfg, 'memory', dir);
    running.push(memory);
    await memory.stop();
    const data = await createRates(cfg, '--data', dir);
    running.push(data);
    await restarts(cfg, data, join(dir, 'state.json'));
    await copyWhileServing(cfg, dir);
    await seeding(cfg, dir);
    await putWithLocks(cfg);
    await bigFolderListings(cfg.bigFolder, dir);
  } finally {
    for (const s of running) await s.stop('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
}
