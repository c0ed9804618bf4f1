import type { CommandModule } from 'yargs';
import { printLine, type CliContext } from './context.js';

interface CaArgs {
  'ca-dir'?: string;
  path: boolean;
  compat: boolean;
  port?: number;
}

/** `csp-mock ca`: the local CA (made when missing), where its certificate is and how to trust it. */
export const caCommand = (cli: CliContext): CommandModule<object, CaArgs> => ({
  command: 'ca',
  describe: 'where the local CA certificate of --https is, and how to trust it (made when missing)',
  builder: (y) =>
    y
      .option('ca-dir', {
        type: 'string',
        describe: "the local CA's folder (env CSP_MOCK_CA_DIR; default: csp-mock/ in your configuration folder)",
      })
      .option('path', { type: 'boolean', default: false, describe: 'print only the CA certificate file' })
      .option('compat', {
        type: 'boolean',
        default: false,
        describe: 'the compat CA of --ca-compat (no name constraints, for Mono) instead of the local CA',
      })
      .option('port', { type: 'number', describe: 'the port your mock serves HTTPS on, for the examples printed' })
      .check((args) => {
        const port = args['port'] as number | undefined;
        if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535))
          throw new Error('--port must be an integer from 1 to 65535');
        return true;
      })
      .example('$0 ca', 'the CA certificate file and how to trust it in curl, Node, the OS, Android and iOS')
      .example(
        'curl --cacert "$($0 ca --path)" https://localhost:8443/v2',
        'one client trusts it (8443: your port)',
      ) as never,
  handler: async (args) => {
    // Loaded when the command runs: node-forge only when a certificate may be made.
    const [{ defaultCaFolder }, { openLocalCa }, { trustGuide }, { X509Certificate }] = await Promise.all([
      import('../tls/ca-folder.js'),
      import('../tls/local-ca.js'),
      import('../tls/trust-guide.js'),
      import('node:crypto'),
    ]);
    const ca = await openLocalCa(
      args['ca-dir'] ?? defaultCaFolder(),
      undefined,
      args.compat ? 'compat' : 'constrained',
    );
    if (args.path) printLine(cli, ca.certFile);
    else printLine(cli, trustGuide(ca, new X509Certificate(ca.certPem).subject.replace(/\n/g, ', '), args.port));
  },
});
