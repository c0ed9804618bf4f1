import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runNodeLoad, type BenchRequest, type LoadResult } from './load.js';
import { formatReport, formatStartupReport, reportJson, type ThroughputRow } from './report.js';
import { HEADERS, SCENARIOS, type BaselineKind } from './scenarios.js';
import type { ServersCommand, ServersReady } from './servers.js';
import { measureColdStart, measureLifecycle } from './startup.js';
import { runWrk, wrkAvailable } from './wrk.js';

/** An env setting as a bounded positive number. */
function positive(name: string, fallback: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > max)
    throw new Error(`${name} must be a number above 0 and at most ${max}, got "${raw}"`);
  return n;
}

/** An env setting as a bounded positive integer (the scale mode's sizes). */
function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 1_000_000)
    throw new Error(`${name} must be an integer from 1 to 1000000, got "${raw}"`);
  return n;
}

function startServers(rounds: number): Promise<{ child: ChildProcess; ready: ServersReady }> {
  const child = fork(fileURLToPath(new URL('./servers.js', import.meta.url)), [String(rounds)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: ['--expose-gc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (ready) => resolve({ child, ready: ready as ServersReady }));
    child.once('exit', (code) => reject(new Error(`the server process exited early (${code})`)));
  });
}

function ask(child: ChildProcess, command: ServersCommand): Promise<{ before: number; peak: number }> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as { before: number; peak: number }));
    child.send(command);
  });
}

/** PUT of `mib` MiB in 1 MiB chunks, honouring backpressure. */
function putLarge(url: string, mib: number): Promise<void> {
  const chunk = Buffer.alloc(1024 * 1024, 'r');
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'PUT', headers: { ...HEADERS, 'Content-Type': 'application/octet-stream' } },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 204 ? resolve() : reject(new Error(`PUT ${mib} MiB: ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    let sent = 0;
    const write = (): void => {
      while (sent < mib) {
        sent++;
        if (!req.write(chunk)) {
          req.once('drain', write);
          return;
        }
      }
      req.end();
    };
    write();
  });
}

/** The upload before the measured ones (not reported). */
const WARM_UP_MIB = 64;

/** BENCH_UPLOAD_MIB: the large uploads whose RSS growth is measured, MiB, comma-separated. */
function uploadSizes(): number[] {
  const raw = process.env['BENCH_UPLOAD_MIB'] || '256,1024';
  return raw.split(',').map((part) => {
    const n = Number(part.trim());
    if (!Number.isInteger(n) || n < 1 || n > 4096)
      throw new Error(`BENCH_UPLOAD_MIB must be whole MiB from 1 to 4096, comma-separated, got "${raw}"`);
    return n;
  });
}

const machine = (): { node: string; cpus: number; cpuModel: string; loadAverage: number[] } => ({
  node: process.version,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
  loadAverage: loadavg(),
});

/**
 * `npm run bench`: every target in one run. Throughput: the mock and its baseline measured
 * in alternation, BENCH_ROUNDS rounds (default 2) of BENCH_SECONDS (default 5) each, best round kept,
 * after a warm-up; wrk when installed (BENCH_LOADGEN=node forces the built-in client). Then the RSS
 * growth of each BENCH_UPLOAD_MIB upload (default 256 and 1024), the CLI cold start (BENCH_SPAWNS, default 9) and
 * reset()/startMock()+close(). Prints the table and writes it as JSON to BENCH_JSON (default
 * <tmpdir>/csp-mock-bench.json).
 */
async function main(): Promise<void> {
  const seconds = positive('BENCH_SECONDS', 5, 600);
  const rounds = Math.round(positive('BENCH_ROUNDS', 2, 20));
  const uploadMiBs = uploadSizes();
  const spawns = Math.round(positive('BENCH_SPAWNS', 9, 100));
  const useWrk = process.env['BENCH_LOADGEN'] !== 'node' && wrkAvailable();
  const workDir = mkdtempSync(join(tmpdir(), 'csp-mock-bench-load-'));
  const { child, ready } = await startServers(rounds);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const urls: Record<BaselineKind, string> = {
    express: ready.expressUrl,
    'node-upload': ready.nodeUrl,
    'node-memory': ready.nodeUrl,
    mock: ready.mockUrl,
  };
  const names: Record<BaselineKind, string> = {
    express: 'express, same bytes',
    'node-upload': 'node:http to file',
    'node-memory': 'node:http memory',
    mock: 'the mock, GET /v2',
  };
  let prefixes = 0;
  const drive = (base: string, spec: BenchRequest, secs: number, connections: number): Promise<LoadResult> => {
    const prefix = `b${prefixes++}-`;
    return useWrk
      ? runWrk(base, spec, secs, connections, prefix, workDir)
      : runNodeLoad(base, spec, secs, connections, prefix);
  };
  try {
    const rows: ThroughputRow[] = [];
    const warm = Math.min(1, seconds);
    for (const scenario of SCENARIOS) {
      const base = urls[scenario.baseline];
      await drive(base, scenario.base(ready.target), warm, scenario.connections);
      await drive(ready.mockUrl, scenario.mock(ready.target, 0), warm, scenario.connections);
      const best: { baseline?: LoadResult; mock?: LoadResult } = {};
      for (let round = 1; round <= rounds; round++) {
        const b = await drive(base, scenario.base(ready.target), seconds, scenario.connections);
        const m = await drive(ready.mockUrl, scenario.mock(ready.target, round), seconds, scenario.connections);
        if (!best.baseline || b.perSecond > best.baseline.perSecond) best.baseline = b;
        if (!best.mock || m.perSecond > best.mock.perSecond) best.mock = m;
      }
      rows.push({ scenario, baselineName: names[scenario.baseline], baseline: best.baseline!, mock: best.mock! });
    }
    const uploads: { uploadMiB: number; growthMiB: number }[] = [];
    // A first upload grows RSS by about 30 MiB whatever its size (socket buffers waiting for a GC, which the
    // allocator keeps for the next): measured after it, each row shows what its size adds, and the spread
    // says whether memory follows the body's size, not which upload came first.
    await putLarge(`${ready.mockUrl}${ready.bigUploadPath}`, WARM_UP_MIB);
    for (const uploadMiB of uploadMiBs) {
      await ask(child, 'rss-start');
      await putLarge(`${ready.mockUrl}${ready.bigUploadPath}`, uploadMiB);
      const rss = await ask(child, 'rss-stop');
      uploads.push({ uploadMiB, growthMiB: (rss.peak - rss.before) / 2 ** 20 });
    }
    // The start-up rows run with the server process gone: its heap (every upload of the run) keeps V8's
    // GC threads busy on the same two cores for a while, which slowed the spawns unevenly.
    child.send('stop');
    await exited;
    const coldStart = await measureColdStart(spawns);
    const lifecycle = await measureLifecycle(Math.max(5, spawns * 4));
    const report = {
      machine: machine(),
      settings: { seconds, rounds, generator: useWrk ? 'wrk -t1' : 'built-in node client' },
      rows,
      rss: { uploads, goalMiB: 64, spreadMiB: 16 },
      coldStart,
      lifecycle,
    };
    console.log(formatReport(report));
    const jsonPath = process.env['BENCH_JSON'] || join(tmpdir(), 'csp-mock-bench.json');
    writeFileSync(jsonPath, `${JSON.stringify(reportJson(report), null, 2)}\n`);
    console.log(`JSON: ${jsonPath}`);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.send('stop');
    await exited;
    rmSync(workDir, { recursive: true, force: true });
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
    million: positiveInt('BENCH_SCALE_MILLION', 1_000_000),
    heapObjects: positiveInt('BENCH_SCALE_HEAP', 20_000),
    bigFolder: positiveInt('BENCH_SCALE_BIG_FOLDER', 100_000),
  });
}

/** `npm run bench -- synthetic`: generated accounts and synthetic content; BENCH_SYNTH_* set the sizes. */
async function synthetic(): Promise<void> {
  const { runSynthetic } = await import('./synthetic.js');
  await runSynthetic({
    files: positiveInt('BENCH_SYNTH_FILES', 1_000_000),
    folders: positiveInt('BENCH_SYNTH_FOLDERS', 20_000),
    rounds: positiveInt('BENCH_SYNTH_ROUNDS', 3),
  });
}

/** `npm run bench -- startup`: only the CLI's cold start, reset() and startMock()+close() (BENCH_SPAWNS). */
async function startup(): Promise<void> {
  const spawns = Math.round(positive('BENCH_SPAWNS', 9, 100));
  const coldStart = await measureColdStart(spawns);
  const lifecycle = await measureLifecycle(Math.max(5, spawns * 4));
  console.log(formatStartupReport(machine(), coldStart, lifecycle));
}

/** `npm run bench -- frontend`: tenants (BENCH_TENANTS) and the Playwright route (BENCH_PW_REQUESTS). */
async function frontend(): Promise<void> {
  const { formatFrontend, measureRoute, measureTenants } = await import('./frontend.js');
  const tenants = await measureTenants(positiveInt('BENCH_TENANTS', 64));
  const route = await measureRoute(positiveInt('BENCH_PW_REQUESTS', 200));
  console.log(formatFrontend(tenants, route));
}

/** `npm run bench -- explore`: issue 35's targets (BENCH_EXPLORE_RUNS, _STEPS, _PASS_MS, _SEARCH). */
async function exploreMode(): Promise<void> {
  const { measureExplore, formatExploreBench } = await import('./explore.js');
  const sizes = {
    runs: positiveInt('BENCH_EXPLORE_RUNS', 100),
    steps: positiveInt('BENCH_EXPLORE_STEPS', 20),
    passMs: positiveInt('BENCH_EXPLORE_PASS_MS', 100),
    search: positiveInt('BENCH_EXPLORE_SEARCH', 40),
  };
  console.log(formatExploreBench(await measureExplore(sizes), sizes));
}

const modes: Record<string, () => Promise<void>> = { scale, synthetic, startup, frontend, explore: exploreMode };
(modes[process.argv[2] ?? ''] ?? main)().catch((err: unknown) => {
  console.error(`bench: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
