import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { forgetAddress, readAddress } from '../../src/cli/mock-address-file.js';

/** What users run (package.json bin). */
export const CLI = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));
export const BASIC_DEMO = `Basic ${Buffer.from('demo:demo').toString('base64')}`;

/** A `csp-mock serve` child process and what it printed so far. */
export class ServeProcess {
  readonly child: ChildProcess;
  readonly stdout: string[] = [];
  readonly stderr: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  url = '';
  port = 0;
  #waiters: Array<() => void> = [];

  constructor(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
    this.child = spawn(process.execPath, [CLI, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: options.cwd,
      env: options.env ?? process.env,
    });
    collectLines(this.child.stdout!, this.stdout, () => this.#notify());
    collectLines(this.child.stderr!, this.stderr, () => this.#notify());
    const pid = this.child.pid;
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        // A child killed (kill -9, a failpoint) cannot take back the address it left for the control commands run
        // in its folder; a later test's command run there would be told of a mock that is gone.
        const left = readAddress(options.cwd ?? process.cwd());
        if (left && left.address.pid === pid) forgetAddress(left.file);
        resolve({ code, signal });
        this.#notify();
      }),
    );
    running.add(this);
    void this.exited.then(() => running.delete(this));
  }

  get pid(): number {
    return this.child.pid!;
  }

  /**
   * Resolves with the first stdout line matching `pattern`; rejects if the process exits first, or after `ms` when
   * given. Without `ms` the test's own timeout bounds the wait: a start takes over 10 s on a machine at load 15.
   */
  waitForLine(pattern: RegExp, ms?: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer =
        ms === undefined
          ? undefined
          : setTimeout(
              () =>
                reject(
                  new Error(
                    `no line matching ${pattern} in ${ms}ms; stdout: ${this.stdout.join('\n')}; stderr: ${this.stderr.join('\n')}`,
                  ),
                ),
              ms,
            );
      const check = (): void => {
        const line = this.stdout.find((l) => pattern.test(l));
        if (line !== undefined) {
          clearTimeout(timer);
          resolve(line);
        } else if (this.child.exitCode !== null || this.child.signalCode !== null) {
          clearTimeout(timer);
          reject(
            new Error(
              `exited (${this.child.exitCode ?? this.child.signalCode}) before ${pattern}; stderr: ${this.stderr.join('\n')}`,
            ),
          );
        } else {
          this.#waiters.push(check);
        }
      };
      check();
    });
  }

  /** Waits for the "listening on" line and reads the URL and port from it. */
  async ready(): Promise<this> {
    const line = await this.waitForLine(/listening on http:\/\//);
    const match = /listening on (http:\/\/[^\s:]+:(\d+))/.exec(line)!;
    this.url = match[1]!;
    this.port = Number(match[2]);
    return this;
  }

  /** Sends `signal` and resolves with the exit. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }

  #notify(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w();
  }
}

function collectLines(stream: NodeJS.ReadableStream, into: string[], changed: () => void): void {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop()!;
    into.push(...parts);
    changed();
  });
  stream.on('end', () => {
    if (rest) into.push(rest);
    changed();
  });
}

const running = new Set<ServeProcess>();

/** Starts `csp-mock serve --port 0 ...args` and waits until it listens. */
export async function serve(
  args: string[] = [],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<ServeProcess> {
  return new ServeProcess(['serve', '--port', '0', ...args], options).ready();
}

/** Stops whatever a test left running: SIGTERM (so it removes its temp blob folder), SIGKILL after 5 s. */
export function killServersAfterEach(): void {
  afterEach(async () => {
    await Promise.all(
      [...running].map(async (p) => {
        const timer = setTimeout(() => p.child.kill('SIGKILL'), 5000);
        await p.stop('SIGTERM');
        clearTimeout(timer);
      }),
    );
  });
}

/** True when nothing accepts a TCP connection at host:port. */
export function refusesConnections(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

/** fetch with demo credentials and X-Client-Specification: 2 unless told otherwise. */
export function fetchAs(
  url: string,
  init: RequestInit & { auth?: string | null; spec?: boolean } = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.auth !== null) headers.set('Authorization', init.auth ?? BASIC_DEMO);
  if (init.spec !== false) headers.set('X-Client-Specification', '2');
  return fetch(url, { ...init, headers });
}

export const basic = (user: string, password: string): string =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
