import type { Argv } from 'yargs';
import { DEFAULT_HOST, DEFAULT_PORT } from '../options.js';
import type { RunningMock } from '../server.js';

/** --port and --host, shared by every command that listens. */
export function withListenOptions<T>(y: Argv<T>): Argv<T & { port: number; host: string }> {
  return y
    .option('port', { type: 'number', default: DEFAULT_PORT, describe: 'port to listen on (0 picks a free one)' })
    .option('host', { type: 'string', default: DEFAULT_HOST, describe: 'address to bind' })
    .check((args) => {
      const port = args['port'] as number;
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--port must be an integer from 0 to 65535');
      return true;
    });
}

/** Ctrl-C or SIGTERM closes the mock (flushing a recording) and exits 0. */
export function stopOnSignals(mock: RunningMock): void {
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    void mock.close().then(() => process.exit(0));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}
