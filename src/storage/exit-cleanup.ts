/**
 * Synchronous clean-ups (a lock file, a private blob folder) that must run however the process
 * ends: on a normal exit, and on SIGINT/SIGTERM/SIGHUP when nobody else handles the signal (a CLI
 * that handles it closes the store itself). A SIGKILL runs nothing: the next start sweeps instead.
 */
const cleanups = new Set<() => void>();
const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
let installed = false;

function runAll(): void {
  for (const cleanup of [...cleanups]) {
    cleanups.delete(cleanup);
    try {
      cleanup();
    } catch {
      // best effort: the process is ending
    }
  }
}

function onSignal(signal: NodeJS.Signals): void {
  // Someone else handles it (e.g. the CLI closes the mock): their close releases everything.
  if (process.listenerCount(signal) > 1) return;
  runAll();
  uninstall();
  process.kill(process.pid, signal);
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', runAll);
  // First in line, whenever installed: a handler added with once() is removed before it runs, so a
  // listener after it would count no one else and end the process under that handler's clean close.
  for (const signal of SIGNALS) process.prependListener(signal, onSignal);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.off('exit', runAll);
  for (const signal of SIGNALS) process.off(signal, onSignal);
}

/** Registers `cleanup`; the returned function unregisters it (call it once the resource is released). */
export function onProcessExit(cleanup: () => void): () => void {
  cleanups.add(cleanup);
  install();
  return () => {
    cleanups.delete(cleanup);
    if (cleanups.size === 0) uninstall();
  };
}
