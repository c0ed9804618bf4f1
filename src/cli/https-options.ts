import type { Argv } from 'yargs';
import { OptionValueError } from './option-checks.js';
import type { RunningMock, StartOptions } from '../server.js';

export interface HttpsArgs {
  https: boolean;
  'https-port'?: number;
  cert?: string;
  key?: string;
  'ca-dir'?: string;
  'ca-compat'?: boolean;
}

/** --https, --https-port, --cert, --key and --ca-dir, for every command that listens. */
export function withHttpsOptions<T>(y: Argv<T>): Argv<T & HttpsArgs> {
  return y
    .option('https', {
      type: 'boolean',
      default: false,
      describe: 'serve HTTPS on --port, with a certificate from the local CA ("csp-mock ca" shows how to trust it)',
    })
    .option('https-port', {
      type: 'number',
      describe: 'also serve HTTPS on this port (0: a free one), beside HTTP on --port',
    })
    .option('cert', { type: 'string', describe: 'serve HTTPS with your own certificate (PEM file; needs --key)' })
    .option('key', { type: 'string', describe: 'the private key of --cert (PEM file, unencrypted)' })
    .option('ca-dir', {
      type: 'string',
      describe: "the local CA's folder (env CSP_MOCK_CA_DIR; default: csp-mock/ in your configuration folder)",
    })
    .option('ca-compat', {
      type: 'boolean',
      describe:
        'HTTPS signed by the compat CA: no name constraints, for runtimes that refuse them (Mono); implies --https',
    })
    .check((args) => {
      const httpsPort = args['https-port'] as number | undefined;
      if (httpsPort !== undefined && (!Number.isInteger(httpsPort) || httpsPort < 0 || httpsPort > 65535))
        throw new Error('--https-port must be an integer from 0 to 65535');
      if (httpsPort !== undefined && httpsPort !== 0 && httpsPort === args['port'])
        throw new Error('--https-port must differ from --port (HTTP listens on --port)');
      if ((args['cert'] === undefined) !== (args['key'] === undefined))
        throw new OptionValueError('--cert and --key go together: give both');
      return true;
    }) as unknown as Argv<T & HttpsArgs>;
}

/** startMock's `https` for these flags: undefined when none asks for HTTPS. */
export function httpsOptionsOf(args: HttpsArgs): StartOptions['https'] {
  const own = args.cert !== undefined || args.key !== undefined;
  const compatCa = args['ca-compat'] === true;
  if (!args.https && args['https-port'] === undefined && !own && !compatCa) return undefined;
  return { port: args['https-port'], certFile: args.cert, keyFile: args.key, caDir: args['ca-dir'], compatCa };
}

/** The ready lines' HTTPS facts: the HTTPS address when HTTP listens too, the certificate, what to trust. */
export function httpsFacts(mock: RunningMock): Array<[string, string]> {
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
