import { mkdtemp, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCount, type CountResult, type ScaleRequest } from './scale-load.js';
import { AUTH, ScaleServer } from './scale-server.js';

/** Sizes of `npm run bench -- synthetic` (BENCH_SYNTH_*; the defaults are the targets). */
export interface SyntheticConfig {
  files: number;
  folders: number;
  /** Read rounds per size; the best round of each side is kept. */
  rounds: number;
}

const say = (line: string): void => console.log(line);
const MIB = 1024 * 1024;

/** The body of a GET, whole. */
function fetchBytes(base: string, path: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    request(`${base}${path}`, { headers: AUTH }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        res.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`GET ${path}: ${res.statusCode}`)),
      );
    })
      .on('error', reject)
      .end();
  });
}

/** Start to "listening" and RSS after it, for a generated account of `files` files and `folders` folders. */
async function generation(cfg: SyntheticConfig, mode: 'memory' | '--data', dir: string): Promise<void> {
  const data = join(dir, 'generated.json');
  const spec = `files=${cfg.files},folders=${cfg.folders},depth=6,size=200KB~20MB,seed=42`;
  const server = await ScaleServer.start(['--generate', spec, ...(mode === '--data' ? ['--data', data] : [])], 600_000);
  try {
    const kept = mode === '--data' ? `; state file ${((await stat(data)).size / MIB).toFixed(0)} MiB` : '';
    say(
      `generate ${cfg.files} files in ${cfg.folders} folders, ${mode}: start to "listening" ${server.startSeconds.toFixed(2)} s (target <= 15 s); RSS after ${server.rssMiB().toFixed(0)} MiB (target <= 1024 MiB)${kept}`,
    );
  } finally {
    await server.stop();
  }
  if (mode === '--data') {
    const restarted = await ScaleServer.start(['--data', data], 600_000);
    say(
      `restart of that state, --data: start to "listening" ${restarted.startSeconds.toFixed(2)} s; RSS after ${restarted.rssMiB().toFixed(0)} MiB`,
    );
    await restarted.stop();
  }
}

/**
 * GET of synthetic files against the same bytes stored in the same mock and served from its content
 * cache (from memory): the same path and size, alternated round by round. Synthetic files are read
 * twice over: the same file again (its base block kept among the generator's recent ones), and a
 * different file each time, `files` of them, more than the generator keeps bases for (64) and more
 * bytes than the content cache holds (64 MiB), so every read makes its file from its seed.
 */
async function readThroughput(
  cfg: SyntheticConfig,
  label: string,
  size: string,
  files: number,
  clients: number,
  count: number,
) {
  const server = await ScaleServer.start(['--generate', `files=${files},size=${size},seed=5`]);
  try {
    const bytes = await fetchBytes(server.url, '/dav/file-1.bin');
    await new Promise<void>((resolve, reject) => {
      request(`${server.url}/dav/stored.bin`, { method: 'PUT', headers: AUTH }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 201 ? resolve() : reject(new Error(`PUT: ${res.statusCode}`))));
      })
        .on('error', reject)
        .end(bytes);
    });
    const stored = await fetchBytes(server.url, '/dav/stored.bin');
    if (!stored.equals(bytes)) throw new Error('the stored copy does not read back as the synthetic bytes');
    const get = (path: (i: number) => string) => (i: number) => ({
      method: 'GET',
      path: path(i),
      headers: AUTH,
      expect: 200,
    });
    const sides = {
      memory: get(() => '/dav/stored.bin'),
      again: get(() => '/dav/file-1.bin'),
      made: get((i) => `/dav/file-${1 + (i % files)}.bin`),
    };
    const best: Partial<Record<keyof typeof sides, CountResult>> = {};
    for (let round = 0; round <= cfg.rounds; round++) {
      for (const [side, next] of Object.entries(sides) as Array<[keyof typeof sides, (i: number) => ScaleRequest]>) {
        const result = await runCount(server.url, next, count, clients);
        if (round > 0 && (!best[side] || result.perSecond > best[side].perSecond)) best[side] = result;
      }
    }
    const gbps = (r: CountResult): string => `${((r.requests * bytes.length) / r.seconds / 1e9).toFixed(2)} GB/s`;
    const memory = best.memory!;
    for (const [side, what] of [
      ['again', 'the same synthetic file again'],
      ['made', `a different one of ${files} synthetic files each time (made on every read)`],
    ] as const) {
      const r = best[side]!;
      say(
        `GET ${label} (c${clients}), ${what} vs the same bytes from memory: ${r.perSecond.toFixed(0)} vs ${memory.perSecond.toFixed(0)} req/s` +
          ` (${gbps(r)} vs ${gbps(memory)}) = ${(r.perSecond / memory.perSecond).toFixed(2)}x (target >= 0.8x)`,
      );
    }
  } finally {
    await server.stop();
  }
}

/** `npm run bench -- synthetic`: a generated million-file account and the read speed of synthetic content. */
export async function runSynthetic(cfg: SyntheticConfig): Promise<void> {
  say(`csp-mock synthetic content benchmark (node ${process.version})`);
  const dir = await mkdtemp(join(tmpdir(), 'csp-mock-synthetic-'));
  try {
    await generation(cfg, 'memory', dir);
    await generation(cfg, '--data', dir);
    await readThroughput(cfg, '8 MiB', '8MiB', 96, 4, 200);
    await readThroughput(cfg, '256 KiB', '256KiB', 600, 8, 4000);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
