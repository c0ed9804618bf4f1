import type { CommandModule } from 'yargs';
import { DEFAULT_HOST, DEFAULT_PORT } from '../options.js';
import { startMock } from '../server.js';
import type { RunningMock } from '../server.js';

interface RecordArgs {
  upstream: string;
  out: string;
  port: number;
  host: string;
  redact?: string[];
  append: boolean;
  'public-url'?: string;
  'sidecar-threshold': number;
}

export const recordCommand: CommandModule<object, RecordArgs> = {
  command: 'record',
  describe: 'a reverse proxy to the real service that writes every exchange to a recording',
  builder: (y) =>
    y
      .option('upstream', { type: 'string', demandOption: true, describe: 'base URL of the service, e.g. https://cloud.example.com' })
      .option('out', { type: 'string', default: 'recordings/session.json', describe: 'recording file (large bodies go to <name>.bodies/)' })
      .option('port', { type: 'number', default: DEFAULT_PORT, describe: 'port to listen on (0 picks a free one)' })
      .option('host', { type: 'string', default: DEFAULT_HOST, describe: 'address to bind' })
      .option('redact', { type: 'string', array: true, describe: 'more header or query names never to write (Authorization, cookies and X-Cloud-Key always are)' })
      .option('append', { type: 'boolean', default: false, describe: 'keep the exchanges already in --out' })
      .option('public-url', { type: 'string', describe: 'our own base URL as clients see it (default: the request Host)' })
      .option('sidecar-threshold', { type: 'number', default: 64 * 1024, describe: 'bodies larger than this many bytes go to sidecar files' }) as never,
  handler: async (args) => {
    const mock = await startMock({
      port: args.port,
      host: args.host,
      publicUrl: args['public-url'],
      log: true,
      mode: { kind: 'record', upstream: args.upstream, out: args.out, redact: args.redact, append: args.append, sidecarThreshold: args['sidecar-threshold'] },
    });
    console.log(`csp-mock recording ${args.upstream} through ${mock.url} into ${args.out}`);
    stopOnSignals(mock);
  },
};

/** Ctrl-C or SIGTERM closes the mock (flushing a recording) and exits. */
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
