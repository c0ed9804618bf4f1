import type { Argv } from 'yargs';
import { DEFAULT_HOST, DEFAULT_PORT } from '../options.js';
import { DEFAULT_TIMEOUTS, type RunningMock, type StartOptions } from '../server.js';

export interface ListenArgs {
  port: number;
  host: string;
  'allow-host'?: string[];
  'headers-timeout': number;
  'request-timeout': number;
  'idle-timeout': number;
  'keep-alive-timeout': number;
}

/** The listening options as startMock takes them. */
export function listenOptionsOf(args: ListenArgs): Pick<StartOptions, 'port' | 'host' | 'allowedHosts' | 'timeouts'> {
  return {
    port: args.port,
    host: args.host,
    allowedHosts: args['allow-host'],
    timeouts: { headersMs: args['headers-timeout'], requestMs: args['request-timeout'], idleMs: args['idle-timeout'], keepAliveMs: args['keep-alive-timeout'] },
  };
}

/** --port, --host, --allow-host and the time limits, shared by every command that listens. */
export function withListenOptions<T>(y: Argv<T>): Argv<T & ListenArgs> {
  return y
    .option('port', { type: 'number', default: DEFAULT_PORT, describe: 'port to listen on (0 picks a free one)' })
    .option('host', { type: 'string', default: DEFAULT_HOST, describe: 'address to bind' })
    .option('allow-host', { type: 'string', array: true, describe: 'another Host name to answer (repeatable; ".example.org" for a domain and its subdomains)' })
    .option('headers-timeout', { type: 'number', default: DEFAULT_TIMEOUTS.headersMs, describe: 'ms to receive a request\'s headers' })
    .option('request-timeout', { type: 'number', default: DEFAULT_TIMEOUTS.requestMs, describe: 'ms to receive a whole request (0: no limit; slow uploads that keep moving pass)' })
    .option('idle-timeout', { type: 'number', default: DEFAULT_TIMEOUTS.idleMs, describe: 'ms without traffic after which a connection is closed' })
    .option('keep-alive-timeout', { type: 'number', default: DEFAULT_TIMEOUTS.keepAliveMs, describe: 'ms an idle keep-alive connection stays open' })
    .check((args) => {
      const port = args['port'] as number;
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--port must be an integer from 0 to 65535');
      for (const name of ['headers-timeout', 'request-timeout', 'idle-timeout', 'keep-alive-timeout']) {
        const ms = args[name] as number;
        if (!Number.isInteger(ms) || ms < 0) throw new Error(`--${name} must be a whole number of milliseconds (0 or more)`);
      }
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
