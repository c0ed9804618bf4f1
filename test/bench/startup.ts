import { fork, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// What `csp-mock` runs (package.json bin).
const CLI = fileURLToPath(new URL('../../cli/bin.js', import.meta.url));

/** Milliseconds from spawn to exit of `node ARGS`, which must succeed. */
function timeToExit(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.once('exit', (code) => {
      if (code === 0) resolve(Number(process.hrtime.bigint() - t0) / 1e6);
      else reject(new Error(`node ${args.join(' ')} exited (${code}): ${err}`));
    });
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export interface ColdStart {
  cliMs: number;
  bareMs: number;
  ratio: number;
}

/**
 * `csp-mock scenarios` (start, list, exit) against a bare `node -e 0`, alternated, median of `runs` each, after
 * one warm-up of each (like the throughput rows' warm-up; on Node 22+ it also fills Node's compile cache).
 */
export async function measureColdStart(runs: number): Promise<ColdStart> {
  await timeToExit(['-e', '0']);
  await timeToExit([CLI, 'scenarios']);
  const cli: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < runs; i++) {
    bare.push(await timeToExit(['-e', '0']));
    cli.push(await timeToExit([CLI, 'scenarios']));
  }
  const cliMs = median(cli);
  const bareMs = median(bare);
  return { cliMs, bareMs, ratio: cliMs / bareMs };
}

export interface Lifecycle {
  resetMs: number;
  startCloseMs: number;
}

/** reset() with the demo seed and startMock()+close(), after the first, medians; in a fresh process. */
export function measureLifecycle(runs: number): Promise<Lifecycle> {
  const child = fork(fileURLToPath(new URL('./lifecycle.js', import.meta.url)), [String(runs)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m as Lifecycle));
    child.once('exit', (code) => reject(new Error(`lifecycle process exited (${code})`)));
  });
}
