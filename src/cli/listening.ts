import type { Argv } from 'yargs';
import { resolveCorsOrigins } from '../http/cors.js';
import { DEFAULT_HOST, DEFAULT_PORT, DEFAULT_TIMEOUTS } from '../option-defaults.js';
import type { MockOptions } from '../options.js';
import type { RunningMock, StartOptions } from '../server.js';
import { httpsFacts, httpsOptionsOf, withHttpsOptions, type HttpsArgs } from './https-options.js';
import { leaveAddress } from './mock-address-file.js';
import { logLineFor, outputLine, readyOutput, type OutputFormat } from './output-lines.js';

export interface ListenArgs extends HttpsArgs {
  port: number;
  host: string;
  quiet: boolean;
  verbose: boolean;
  'log-format': 'text' | 'json';
  'allow-host'?: string[];
  'cors-origin'?: string[];
  cors: boolean;
  'headers-timeout': number;
  'request-timeout': number;
  'idle-timeout': number;
  'keep-alive-timeout': number;
}

/** The listening options as startMock takes them. */
export function listenOptionsOf(
  args: ListenArgs,
): Pick<StartOptions, 'port' | 'host' | 'allowedHosts' | 'corsOrigins' | 'cors' | 'timeouts' | 'https'> {
  return {
    https: httpsOptionsOf(args),
    port: args.port,
    host: args.host,
    allowedHosts: args['allow-host'],
    corsOrigins: args['cors-origin'],
    cors: args.cors,
    timeouts: {
      headersMs: args['headers-timeout'],
      requestMs: args['request-timeout'],
      idleMs: args['idle-timeout'],
      keepAliveMs: args['keep-alive-timeout'],
    },
  };
}

/** --port, --host, --allow-host, CORS, the time limits and the log options, shared by every command that listens. */
export function withListenOptions<T>(y: Argv<T>): Argv<T & ListenArgs> {
  return withHttpsOptions(y)
    .option('port', {
      alias: 'p',
      type: 'number',
      default: DEFAULT_PORT,
      describe: 'port to listen on, 0 picks a free one (env CSP_MOCK_PORT or PORT)',
    })
    .option('host', { alias: 'H', type: 'string', default: DEFAULT_HOST, describe: 'address to bind' })
    .option('allow-host', {
      type: 'string',
      array: true,
      describe: 'another Host name to answer (repeatable; ".example.org" for a domain and its subdomains)',
    })
    .option('cors-origin', {
      type: 'string',
      array: true,
      describe:
        'a web page origin that may call /v2, /dav and /cdmi from a browser besides localhost ones (repeatable; "*": any, with a warning)',
    })
    .option('cors', {
      type: 'boolean',
      default: true,
      describe: 'answer browsers from allowed origins (CORS); --no-cors turns it off',
    })
    .option('headers-timeout', {
      type: 'number',
      default: DEFAULT_TIMEOUTS.headersMs,
      describe: "ms to receive a request's headers",
    })
    .option('request-timeout', {
      type: 'number',
      default: DEFAULT_TIMEOUTS.requestMs,
      describe: 'ms to receive a whole request (0: no limit; slow uploads that keep moving pass)',
    })
    .option('idle-timeout', {
      type: 'number',
      default: DEFAULT_TIMEOUTS.idleMs,
      describe: 'ms without traffic after which a connection is closed',
    })
    .option('keep-alive-timeout', {
      type: 'number',
      default: DEFAULT_TIMEOUTS.keepAliveMs,
      describe: 'ms an idle keep-alive connection stays open',
    })
    .option('quiet', {
      alias: 'q',
      type: 'boolean',
      default: false,
      describe: 'no line per request (the ready lines and errors still print)',
    })
    .option('verbose', {
      type: 'boolean',
      default: false,
      describe: 'log request and response headers and the first 2 KiB of bodies, secrets removed',
    })
    .option('log-format', {
      choices: ['text', 'json'] as const,
      default: 'text' as const,
      describe: 'request lines as text or as one JSON object a line',
    })
    .check((args) => {
      if (args['quiet'] && args['verbose']) throw new Error('give --quiet or --verbose, not both');
      const port = args['port'] as number;
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new Error('--port must be an integer from 0 to 65535');
      resolveCorsOrigins((args['cors-origin'] as string[] | undefined) ?? [], '--cors-origin');
      for (const name of ['headers-timeout', 'request-timeout', 'idle-timeout', 'keep-alive-timeout']) {
        const ms = args[name] as number;
        if (!Number.isInteger(ms) || ms < 0)
          throw new Error(`--${name} must be a whole number of milliseconds (0 or more)`);
      }
      return true;
    }) as unknown as Argv<T & ListenArgs>;
}

/** The MockOptions the log flags stand for (under --log-format json, every line of ours is JSON too). */
export function logOptionsOf(args: ListenArgs): Pick<MockOptions, 'log' | 'logFormat' | 'verbose'> {
  const format = args['log-format'];
  return {
    log: args.quiet ? false : format === 'json' ? logLineFor(format) : true,
    logFormat: format,
    verbose: args.verbose,
  };
}

/**
 * Once the mock listens: stop on signals, leave its URL for the control commands run from this folder (gone
 * when it stops), then print the ready lines (last: whoever waits for them may stop the mock at once).
 */
export function announce(command: string, mock: RunningMock, facts: Array<[string, string]>, args: ListenArgs): void {
  const format = args['log-format'];
  const address = leaveAddress({ url: mock.url, pid: process.pid, command, cwd: process.cwd() });
  if (address.problem) process.stderr.write(`csp-mock: ${address.problem}; control commands need --url\n`);
  stopOnSignals(mock, format, address.remove);
  readyOutput(format, command, mock.url, [...facts, ...corsFacts(mock.options), ...httpsFacts(mock)]);
}

/** A CORS line when it is not the default (pages on loopback origins only). */
function corsFacts(options: RunningMock['options']): Array<[string, string]> {
  if (!options.cors) return [['CORS', 'off (--no-cors): browsers on other origins cannot read any answer']];
  if (options.corsOrigins.includes('*')) return [['CORS', 'ANY web page may call /v2, /dav and /cdmi']];
  if (options.corsOrigins.length === 0) return [];
  return [['CORS', `pages on localhost and ${options.corsOrigins.join(', ')}`]];
}

/**
 * Ctrl-C or SIGTERM closes the mock (flushing a recording) and exits 0. Under npx (npm_command "exec") npm
 * runs the command through a shell and passes a SIGTERM on to the shell only, which ends without passing it
 * on: the mock leaves with its parent instead (a documented process.ppid that changes when it is gone).
 */
function stopOnSignals(mock: RunningMock, format: OutputFormat, forget: () => void): void {
  let stopping = false;
  process.once('exit', forget);
  const stop = (why: string): void => {
    if (stopping) return;
    stopping = true;
    forget();
    outputLine(format, `${why}: stopping`, 'stop', { reason: why });
    void mock.close().then(() => process.exit(0));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  if (process.env['npm_command'] === 'exec') {
    const parent = process.ppid;
    setInterval(() => {
      if (process.ppid !== parent) stop('npx ended');
    }, 250).unref();
  }
}

/** A start that fails (a bad scenario, a taken port, a missing recording) is one line for a person. */
export function cannotStart(err: unknown, port?: number): never {
  const message = err instanceof Error ? err.message : String(err);
  console.error(`csp-mock: cannot start: ${message}`);
  if (/EADDRINUSE/.test(message) && port)
    console.error(
      `csp-mock: port ${port} is in use: "-p 0" picks a free port (the ready line prints it), "-p PORT" another one; "lsof -i :${port}" or "ss -ltnp 'sport = :${port}'" shows which process holds it`,
    );
  process.exit(1);
}
