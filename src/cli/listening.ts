import type { Argv } from 'yargs';
import { resolveCorsOrigins } from '../http/cors.js';
import type { MockOptions, RunningMock, StartOptions } from '../index.js';
import { CliError, type CliContext } from './context.js';
import { leaveAddress } from './mock-address-file.js';
import { OptionValueError } from './option-checks.js';
import { withOptions, type OptionValues } from './option-flags.js';
import { logLineFor, readyOutput } from './output-lines.js';

/** The options of every command that listens (serve, record, replay), in the order --help shows them. */
const LISTEN_OPTIONS = [
  'https',
  'https-port',
  'cert',
  'key',
  'ca-dir',
  'ca-compat',
  'port',
  'host',
  'allow-host',
  'cors-origin',
  'cors',
  'headers-timeout',
  'request-timeout',
  'idle-timeout',
  'keep-alive-timeout',
  'quiet',
  'verbose',
  'log-format',
] as const;

export type ListenArgs = Pick<OptionValues, (typeof LISTEN_OPTIONS)[number]>;

const isPort = (n: unknown, from = 0): boolean =>
  Number.isInteger(n) && (n as number) >= from && (n as number) <= 65535;

/** --port, --host, --allow-host, CORS, HTTPS, the time limits and the log options, with their checks. */
export function withListenOptions<T>(y: Argv<T>): Argv<T & ListenArgs> {
  return withOptions(y, LISTEN_OPTIONS).check((args) => {
    const httpsPort = args['https-port'];
    if (httpsPort !== undefined && !isPort(httpsPort))
      throw new Error('--https-port must be an integer from 0 to 65535');
    if (httpsPort !== undefined && httpsPort !== 0 && httpsPort === args.port)
      throw new Error('--https-port must differ from --port (HTTP listens on --port)');
    if ((args.cert === undefined) !== (args.key === undefined))
      throw new OptionValueError('--cert and --key go together: give both');
    if (args.quiet && args.verbose) throw new Error('give --quiet or --verbose, not both');
    if (!isPort(args.port)) throw new Error('--port must be an integer from 0 to 65535');
    resolveCorsOrigins(args['cors-origin'] ?? [], '--cors-origin');
    for (const name of ['headers-timeout', 'request-timeout', 'idle-timeout', 'keep-alive-timeout'] as const) {
      if (!(Number.isInteger(args[name]) && args[name] >= 0))
        throw new Error(`--${name} must be a whole number of milliseconds (0 or more)`);
    }
    return true;
  });
}

/** startMock's options for the listening flags (the log ones through the context: the CLI's stdout, or a test's). */
export function listenOptionsOf(args: ListenArgs, cli: CliContext): StartOptions {
  const format = args['log-format'];
  const ownCert = args.cert !== undefined || args.key !== undefined;
  const compatCa = args['ca-compat'] === true;
  const https = args.https || args['https-port'] !== undefined || ownCert || compatCa;
  const log: MockOptions['log'] = args.quiet
    ? false
    : format === 'json'
      ? logLineFor(cli, format)
      : (cli.requestLog ?? true);
  return {
    https: https
      ? { port: args['https-port'], certFile: args.cert, keyFile: args.key, caDir: args['ca-dir'], compatCa }
      : undefined,
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
    log,
    logFormat: format,
    verbose: args.verbose,
  };
}

/** startMock, with a start that fails (a bad scenario, a taken port, a missing recording) as one line for a person. */
export async function startListening(options: StartOptions): Promise<RunningMock> {
  // Loaded when a listening command runs: the other commands (and --help) never need the server.
  const { startMock } = await import('../server.js');
  return startMock(options).catch((err: unknown) => cannotStart(err, options.port));
}

/**
 * Once the mock listens: leave its URL for the control commands run from this folder (gone when it stops),
 * then print the ready lines (last: whoever waits for them may stop the mock at once).
 */
export function announce(
  cli: CliContext,
  command: string,
  mock: RunningMock,
  facts: Array<[string, string]>,
  args: ListenArgs,
): void {
  const format = args['log-format'];
  const address = leaveAddress({ url: mock.url, pid: process.pid, command, cwd: process.cwd() });
  if (address.problem) cli.stderr(`csp-mock: ${address.problem}; control commands need --url\n`);
  cli.running = {
    mock,
    format,
    close: async () => {
      address.remove();
      await mock.close();
    },
  };
  cli.onListening?.(cli.running);
  readyOutput(cli, format, command, mock.url, [...facts, ...corsFacts(mock.options), ...httpsFacts(mock)]);
}

/** A CORS line when it is not the default (pages on loopback origins only). */
function corsFacts(options: RunningMock['options']): Array<[string, string]> {
  if (!options.cors) return [['CORS', 'off (--no-cors): browsers on other origins cannot read any answer']];
  if (options.corsOrigins.includes('*')) return [['CORS', 'ANY web page may call /v2, /dav and /cdmi']];
  if (options.corsOrigins.length === 0) return [];
  return [['CORS', `pages on localhost and ${options.corsOrigins.join(', ')}`]];
}

/** The ready lines' HTTPS facts: the HTTPS address when HTTP listens too, the certificate, what to trust. */
function httpsFacts(mock: RunningMock): Array<[string, string]> {
  const https = mock.https;
  if (!https) return [];
  const facts: Array<[string, string]> = [];
  if (https.url !== mock.url) facts.push(['HTTPS', https.url]);
  if (!https.names) facts.push(['TLS', 'your certificate (--cert, --key)']);
  else {
    const ca = https.caCompat ? 'compat CA (no name constraints)' : 'local CA';
    facts.push(['TLS', `certificate for ${https.names.join(', ')}, signed by the ${ca}`]);
    facts.push([
      'trust',
      `${https.caFile ?? ''}${https.caCreated ? ` (a NEW ${ca}, made now)` : ''}; "csp-mock ca${https.caCompat ? ' --compat' : ''}" shows how`,
    ]);
  }
  return facts;
}

/** A start that fails is one line (two for a port in use: what to do about it). */
export function cannotStart(err: unknown, port?: number): never {
  const message = err instanceof Error ? err.message : String(err);
  const inUse =
    /EADDRINUSE/.test(message) && port
      ? `\ncsp-mock: port ${port} is in use: "-p 0" picks a free port (the ready line prints it), "-p PORT" another one; "lsof -i :${port}" or "ss -ltnp 'sport = :${port}'" shows which process holds it`
      : '';
  throw new CliError(`cannot start: ${message}${inUse}`);
}
