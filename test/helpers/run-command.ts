import { spawn } from 'node:child_process';

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (no shell) and collects what it printed. */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    // A command that exits without reading stdin (git rev-parse) makes this write EPIPE: its exit code tells.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/**
 * Starts a long-running command in its own process group, waits for a stdout line matching `ready`,
 * and returns that line with a stop() that signals the whole group (npx does not forward signals).
 */
export async function startCommand(
  command: string,
  args: string[],
  ready: RegExp,
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<{ line: string; output: () => string; stop: () => Promise<void> }> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    await exited;
  };
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no line matching ${ready}; stdout: ${stdout}; stderr: ${stderr}`)),
      options.timeoutMs ?? 30_000,
    );
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
      const found = stdout.split('\n').find((l) => ready.test(l));
      if (found !== undefined) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.once('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}) before ${ready}; stdout: ${stdout}; stderr: ${stderr}`));
    });
  }).catch(async (err: unknown) => {
    await stop();
    throw err;
  });
  return { line, output: () => stdout, stop };
}
