import { spawn } from 'node:child_process';

/** What a client is told for one pass (the same four values a command gets in its environment). */
export interface PassContext {
  url: string;
  user: string;
  password: string;
  /** The folder it keeps in sync. */
  dir: string;
}

/**
 * A sync client: a shell command (run in the current folder with CSP_SYNC_DIR, CSP_MOCK_URL, CSP_MOCK_USER
 * and CSP_MOCK_PASSWORD set; one pass, then exit), or a function doing one pass (it may throw).
 */
export type SyncClient = string | ((pass: PassContext) => Promise<void>);

export interface PassResult {
  ok: boolean;
  /** The command's exit code (null when killed or for a function). */
  exitCode: number | null;
  timedOut: boolean;
  /** Why it failed: the last lines the command wrote to stderr, or the function's error. */
  error?: string;
}

const TAIL = 2000;

/** Runs one pass of the client; a pass still running after `timeoutMs` is killed (its whole process group). */
export function runPass(client: SyncClient, pass: PassContext, timeoutMs: number): Promise<PassResult> {
  return typeof client === 'string' ? runCommand(client, pass, timeoutMs) : runFunction(client, pass, timeoutMs);
}

function runCommand(command: string, pass: PassContext, timeoutMs: number): Promise<PassResult> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], {
      // Its own process group, so a timeout kills what the shell started too.
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        CSP_SYNC_DIR: pass.dir,
        CSP_MOCK_URL: pass.url,
        CSP_MOCK_USER: pass.user,
        CSP_MOCK_PASSWORD: pass.password,
      },
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-TAIL);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      resolve({ ok: false, exitCode: null, timedOut: false, error: err.message });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      const error = timedOut
        ? `no exit after ${timeoutMs} ms: killed`
        : code === 0
          ? undefined
          : stderr.trim() || `exit ${code}`;
      resolve({ ok: code === 0 && !timedOut, exitCode: code, timedOut, ...(error ? { error } : {}) });
    });
  });
}

async function runFunction(
  client: (pass: PassContext) => Promise<void>,
  pass: PassContext,
  timeoutMs: number,
): Promise<PassResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<PassResult>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, exitCode: null, timedOut: true, error: `no answer after ${timeoutMs} ms` }),
      timeoutMs,
    );
  });
  const done = client(pass).then(
    (): PassResult => ({ ok: true, exitCode: null, timedOut: false }),
    (err: unknown): PassResult => ({
      ok: false,
      exitCode: null,
      timedOut: false,
      error: err instanceof Error ? err.message : String(err),
    }),
  );
  try {
    return await Promise.race([done, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
