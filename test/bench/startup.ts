import { fork, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
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

/** A bare node:http server that prints its address once it listens: what `csp-mock serve` is measured against. */
const BARE_SERVER =
  "const s = require('node:http').createServer((q, r) => r.end()).listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + s.address().port))";

/** Milliseconds from spawn to the first stdout line naming an http:// address (its ready line); then it is stopped. */
function timeToReady(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    // Away from the repository: no config file or ./scenarios of ours is read.
    const child = spawn(process.execPath, args, { cwd: tmpdir(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let readyMs: number | undefined;
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (readyMs !== undefined || !out.includes('http://')) return;
      readyMs = Number(process.hrtime.bigint() - t0) / 1e6;
      child.kill('SIGTERM');
    });
    child.once('exit', (code) => {
      if (readyMs !== undefined) resolve(readyMs);
      else reject(new Error(`node ${args.join(' ')} exited (${code}) before its ready line: ${err}`));
    });
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export interface ColdStart {
  cliMs: number;
  bareMs: number;
  ratio: number;
  /** `csp-mock serve --port 0` to its ready line, and a bare node:http server to its own. */
  serveMs: number;
  bareServerMs: number;
  serveRatio: number;
}

/**
 * `csp-mock scenarios` (start, list, exit) against a bare `node -e 0`, and `csp-mock serve` to its ready line
 * against a bare node:http server to its own, alternated, median of `runs` each, after one warm-up of each (like
 * the throughput rows' warm-up; on Node 22+ it also fills Node's compile cache).
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
  const serve: number[] = [];
  const bareServer: number[] = [];
  await timeToReady([CLI, 'serve', '--port', '0']);
  for (let i = 0; i < runs; i++) {
    bareServer.push(await timeToReady(['-e', BARE_SERVER]));
    serve.push(await timeToReady([CLI, 'serve', '--port', '0']));
  }
  const cliMs = median(cli);
  const bareMs = median(bare);
  const serveMs = median(serve);
  const bareServerMs = median(bareServer);
  return { cliMs, bareMs, ratio: cliMs / bareMs, serveMs, bareServerMs, serveRatio: serveMs / bareServerMs };
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
