import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runLoad } from './load.js';
import { formatReport, type Row } from './report.js';
import { SCENARIOS } from './scenarios.js';
import type { ServersReady } from './servers.js';

/** An env setting as a bounded positive integer. */
function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 1_000_000) throw new Error(`${name} must be an integer from 1 to 1000000, got "${raw}"`);
  return n;
}

function startServers(): Promise<{ child: ChildProcess; ready: ServersReady }> {
  const child = fork(fileURLToPath(new URL('./servers.js', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (ready) => resolve({ child, ready: ready as ServersReady }));
    child.once('exit', (code) => reject(new Error(`the server process exited early (${code})`)));
  });
}

/**
 * `npm run bench`: the same requests against bare express and the mock, in one run, one after the
 * other; BENCH_REQUESTS (default 2000) per scenario and server, BENCH_CONCURRENCY (default 8).
 */
async function main(): Promise<void> {
  const requests = positiveInt('BENCH_REQUESTS', 2000);
  const concurrency = positiveInt('BENCH_CONCURRENCY', 8);
  const { child, ready } = await startServers();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const { target, uploadWarmTarget } = ready.prepared;
    const warm = Math.max(1, Math.floor(requests / 10));
    const rows: Row[] = [];
    for (const scenario of SCENARIOS) {
      // Warm-up uploads use numbers and a folder of their own so no name is taken twice.
      await runLoad(ready.baselineUrl, (i) => scenario.request(uploadWarmTarget, requests + i), warm, concurrency);
      await runLoad(ready.mockUrl, (i) => scenario.request(uploadWarmTarget, requests + i), warm, concurrency);
      const baseline = await runLoad(ready.baselineUrl, (i) => scenario.request(target, i), requests, concurrency);
      const mock = await runLoad(ready.mockUrl, (i) => scenario.request(target, i), requests, concurrency);
      rows.push({ scenario: scenario.name, baseline, mock });
    }
    console.log(formatReport(rows, requests, concurrency));
  } finally {
    child.send('stop');
    await exited;
  }
}

/** `npm run bench -- scale`: the store at scale (issue 8); BENCH_SCALE_* set the sizes. */
async function scale(): Promise<void> {
  const { runScale } = await import('./scale.js');
  await runScale({
    objects: positiveInt('BENCH_SCALE_OBJECTS', 100_000),
    clients: positiveInt('BENCH_SCALE_CLIENTS', 16),
    folder: positiveInt('BENCH_SCALE_FOLDER', 1000),
    seconds: positiveInt('BENCH_SCALE_SECONDS', 900),
    copyNodes: positiveInt('BENCH_SCALE_COPY_NODES', 5000),
    seedFiles: positiveInt('BENCH_SCALE_SEED_FILES', 20_000),
    locks: positiveInt('BENCH_SCALE_LOCKS', 8000),
    putSamples: positiveInt('BENCH_SCALE_PUTS', 1000),
  });
}

(process.argv[2] === 'scale' ? scale() : main()).catch((err: unknown) => {
  console.error(`bench: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
