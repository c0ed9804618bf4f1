import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../cli/main.js', import.meta.url));
export const AUTH = {
  Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}`,
  'X-Client-Specification': '2',
};

/** A `csp-mock serve` child on a free loopback port, for the scale benchmark. */
export class ScaleServer {
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
  url = '';
  /** Seconds from spawn to the "listening on" line. */
  startSeconds = 0;
  #err = '';

  private constructor(args: string[], nodeArgs: string[]) {
    const serve = [CLI, 'serve', '--port', '0', '--host', '127.0.0.1', '--empty', ...args];
    this.child = spawn(process.execPath, [...nodeArgs, ...serve], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stderr!.on('data', (c: Buffer) => (this.#err += c.toString()));
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
  }

  /**
   * Starts one and waits until it listens (at most `timeoutMs`). `nodeArgs` go to this child's node
   * only (a heap snapshot on a signal, a CPU profile): measuring tools, never the product's runtime.
   */
  static async start(args: string[], timeoutMs = 120_000, nodeArgs: string[] = []): Promise<ScaleServer> {
    const started = process.hrtime.bigint();
    const server = new ScaleServer(args, nodeArgs);
    let out = '';
    server.url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not listen within ${timeoutMs} ms`)), timeoutMs);
      server.child.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      server.child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the server exited (${code}) before listening: ${server.#err.trim()}`));
      });
    });
    server.startSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    // Keep draining its request log so the pipe never fills.
    server.child.stdout!.resume();
    return server;
  }

  /** Resident set size in MiB (Linux /proc; ps elsewhere would need a shell, so NaN there). */
  rssMiB(): number {
    try {
      const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
      return kb / 1024;
    } catch {
      return Number.NaN;
    }
  }

  /** SIGTERM (a clean stop, with its final snapshot) or SIGKILL; resolves with the seconds it took to exit. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number> {
    const started = process.hrtime.bigint();
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    await this.exited;
    return Number(process.hrtime.bigint() - started) / 1e9;
  }
}
