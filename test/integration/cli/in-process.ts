// The CLI run in the test's own process (runCli, as bin.ts runs it): the same parsing, commands and words,
// without the cost of a Node process per command. Tests of exit codes, signals and the streams of a real
// process keep spawning the built CLI (test/helpers/cli.ts).
import { afterEach } from 'vitest';
import type { CliContext, ListeningMock } from '../../../src/cli/context.js';
import { runCli } from '../../../src/cli/run-cli.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** A listening command (serve, record, replay) that listens, and what it printed so far (as test/helpers/cli.ts's ServeProcess). */
export interface ListeningRun {
  /** The lines printed so far, request lines included. */
  readonly stdout: string[];
  readonly stderr: string[];
  readonly url: string;
  readonly port: number;
  readonly mock: ListeningMock['mock'];
  /** What it printed so far, including request lines printed after the start. */
  output(): { stdout: string; stderr: string };
  /** The first stdout line matching `pattern`, once printed (the test's timeout bounds the wait). */
  waitForLine(pattern: RegExp): Promise<string>;
  /** Closes it as a signal would (its address file goes too). */
  stop(): Promise<void>;
}

interface RunOptions {
  /** The folder it runs in (process.cwd() during the run). */
  cwd?: string;
  /** Variables set (a string) or removed (undefined) for the run. */
  env?: Record<string, string | undefined>;
}

const listening = new Set<ListeningRun>();

/** Closes what a test left listening. */
export function stopListeningAfterEach(): void {
  afterEach(async () => {
    await Promise.all([...listening].map((run) => run.stop()));
  });
}

/** Runs `csp-mock ARGS` here, with the environment and folder given for the length of the run. */
export async function cliHere(
  args: string[],
  options: RunOptions = {},
): Promise<CliRun & { context: CliContext; printed(listener: () => void): void }> {
  let stdout = '';
  let stderr = '';
  const listeners: Array<() => void> = [];
  const out = (text: string): void => {
    stdout += text;
    for (const listener of listeners.splice(0)) listener();
  };
  const context: CliContext = {
    argv: args,
    stdout: out,
    stderr: (text) => void (stderr += text),
    stdoutLine: (line) => out(`${line}\n`),
    requestLog: (line) => out(`${line}\n`),
    exitCode: 0,
  };
  const env = { ...process.env };
  const cwd = process.cwd();
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  if (options.cwd) process.chdir(options.cwd);
  try {
    const code = await runCli(args, context);
    return {
      code,
      context,
      printed: (listener) => void listeners.push(listener),
      get stdout() {
        return stdout;
      },
      get stderr() {
        return stderr;
      },
    };
  } finally {
    process.chdir(cwd);
    for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
    Object.assign(process.env, env);
  }
}

/**
 * Runs a listening command here and resolves once it listens: `serve --port 0 ARGS` for options alone, the
 * words as given when they name the command (serve, record, replay).
 */
export async function serveHere(args: string[] = [], options: RunOptions = {}): Promise<ListeningRun> {
  const named = ['serve', 'replay', 'record'].includes(args[0] ?? '');
  const withPort = named ? args : ['serve', '--port', '0', ...args];
  const run = await cliHere(withPort, options);
  const running = run.context.running;
  if (!running) throw new Error(`csp-mock ${withPort.join(' ')} did not start (${run.code}): ${run.stderr}`);
  let stopped: Promise<void> | undefined;
  const lines = (text: string): string[] => text.split('\n').filter((l, i, all) => i < all.length - 1 || l !== '');
  const started: ListeningRun = {
    get stdout() {
      return lines(run.stdout);
    },
    get stderr() {
      return lines(run.stderr);
    },
    url: running.mock.url,
    port: running.mock.port,
    mock: running.mock,
    output: () => ({ stdout: run.stdout, stderr: run.stderr }),
    waitForLine: (pattern) =>
      new Promise((resolve) => {
        const look = (): void => {
          const line = run.stdout.split('\n').find((l) => pattern.test(l));
          if (line === undefined) run.printed(look);
          else resolve(line);
        };
        look();
      }),
    stop: () => {
      listening.delete(started);
      return (stopped ??= running.close());
    },
  };
  listening.add(started);
  return started;
}
