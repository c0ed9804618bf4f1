import type { CommandModule } from 'yargs';
import { startMock } from '../server.js';
import { listenOptionsOf, stopOnSignals, withListenOptions, type ListenArgs } from './listening.js';

interface RecordArgs extends ListenArgs {
  upstream: string;
  out: string;
  redact?: string[];
  append: boolean;
  'public-url'?: string;
  'admin-token'?: string;
  'sidecar-threshold': number;
}

export const recordCommand: CommandModule<object, RecordArgs> = {
  command: 'record',
  describe: 'a reverse proxy to the real service that writes every exchange to a recording',
  builder: (y) =>
    withListenOptions(y)
      .option('upstream', { type: 'string', demandOption: true, describe: 'base URL of the service, e.g. https://cloud.example.com' })
      .option('out', { type: 'string', default: 'recordings/session.json', describe: 'recording file (large bodies go to <name>.bodies/)' })
      .option('redact', { type: 'string', array: true, describe: 'more header or query names never to write or journal (Authorization, cookies, X-Cloud-Key, X-Auth-Token, X-Api-Key and names containing token, secret, password or api-key always are)' })
      .option('append', { type: 'boolean', default: false, describe: 'keep the exchanges already in --out' })
      .option('public-url', { type: 'string', describe: 'our own base URL as clients see it (default: the request Host)' })
      .option('admin-token', { type: 'string', describe: 'require this token on /__admin (Authorization: Bearer TOKEN)' })
      .option('sidecar-threshold', { type: 'number', default: 64 * 1024, describe: 'bodies larger than this many bytes go to sidecar files' }) as never,
  handler: async (args) => {
    const mock = await startMock({
      ...listenOptionsOf(args),
      publicUrl: args['public-url'],
      adminToken: args['admin-token'],
      log: true,
      mode: { kind: 'record', upstream: args.upstream, out: args.out, redact: args.redact, append: args.append, sidecarThreshold: args['sidecar-threshold'] },
    });
    console.log(`csp-mock recorder listening on ${mock.url}: point your client here; it forwards to ${args.upstream} and writes ${args.out}`);
    stopOnSignals(mock);
  },
};
