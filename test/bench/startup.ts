import { fork, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// What `csp-mock` runs (package.json bin): the CLI bundled into a few files, which starts faster than dist/cli/main.js.
const CLI = fileURLToPath(new URL('../../cli-bundle/csp-mock.cjs', import.meta.url));
/** Bare node:http, the yardstick of a cold start: listen, print the ready line. */
const BARE = `require('node:http').createServer((q, s) => s.end()).listen(0, '127.0.0.1', () => console.log('listening'))`;

/** Milliseconds from spawn to a stdout line containing "listening"; the child is then stopped. */
function timeToListening(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('listening') && timer.hasRef()) {
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        clearTimeout(timer);
        timer.unref();
        child.once('exit', () => resolve(ms));
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.once('exit', (code) => {
      if (!out.includes('listening')) reject(new Error(`${args.join(' ')} exited (${code}) before listening: ${err}`));
    });
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export interface ColdStart {
  cliMs: number;
  bareMs: number;
  ratio: number;
  /** The warm-up start, not in the median: right after a build it compiles the bundle and writes the compile cache. */
  firstCliMs: number;
}

/**
 * `csp-mock serve --port 0` against a bare node:http spawn, alternated, median of `runs` each, after one
 * warm-up start of each (like the throughput rows' warm-up): the first start after a build writes the
 * CLI's compile cache and is reported apart, as `firstCliMs`.
 */
export async function measureColdStart(runs: number): Promise<ColdStart> {
  await timeToListening(['-e', BARE]);
  const firstCliMs = await timeToListening([CLI, 'serve', '--port', '0', '--quiet']);
  const cli: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < runs; i++) {
    bare.push(await timeToListening(['-e', BARE]));
    cli.push(await timeToListening([CLI, 'serve', '--port', '0', '--quiet']));
  }
  const cliMs = median(cli);
  const bareMs = median(bare);
  return { cliMs, bareMs, ratio: cliMs / bareMs, firstCliMs };
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
