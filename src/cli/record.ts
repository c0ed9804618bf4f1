import type { CommandModule } from 'yargs';
import { existsSync } from 'node:fs';
import { RECORD_MODES, RECORD_MODE_STRATEGIES, describePlan, type RecordMode } from '../record/record-modes.js';
import {
  cannotStart,
  listenOptionsOf,
  logOptionsOf,
  announce,
  withListenOptions,
  type ListenArgs,
} from './listening.js';

interface RecordArgs extends ListenArgs {
  upstream: string;
  out: string;
  redact?: string[];
  append: boolean;
  'public-url'?: string;
  'admin-token'?: string;
  'sidecar-threshold': number;
  mode: RecordMode;
}

export const recordCommand: CommandModule<object, RecordArgs> = {
  command: 'record',
  describe: 'a reverse proxy to the real service that writes every exchange to a recording',
  builder: (y) =>
    withListenOptions(y)
      .option('upstream', {
        type: 'string',
        demandOption: true,
        describe: 'base URL of the service, e.g. https://cloud.example.com',
      })
      .option('out', {
        type: 'string',
        default: 'recordings/session.jsonl',
        describe: 'recording file (large bodies go to <name>.bodies/)',
      })
      .option('redact', {
        type: 'string',
        array: true,
        describe:
          'more header or query names never to write or journal (Authorization, cookies, X-Cloud-Key, X-Auth-Token, X-Api-Key and names containing token, secret, password or api-key always are)',
      })
      .option('append', { type: 'boolean', default: false, describe: 'keep the exchanges already in --out' })
      .option('mode', {
        choices: RECORD_MODES,
        default: 'all' as RecordMode,
        describe: RECORD_MODES.map((m) => `${m}: ${RECORD_MODE_STRATEGIES[m].describe}`).join('; '),
      })
      .check((a) => {
        if (a['append'] && a['mode'] !== 'all')
          throw new Error(`--append goes with --mode all; --mode ${String(a['mode'])} keeps the recording already`);
        return true;
      })
      .option('public-url', {
        type: 'string',
        describe: 'our own base URL as clients see it (default: the request Host)',
      })
      .option('admin-token', {
        type: 'string',
        describe: 'require this token on /__admin (Authorization: Bearer TOKEN)',
      })
      .option('sidecar-threshold', {
        type: 'number',
        default: 64 * 1024,
        describe: 'bodies larger than this many bytes go to sidecar files',
      })
      .example(
        '$0 record --upstream https://cloud.example.com --out recordings/login.jsonl',
        'then point the client at the printed URL',
      )
      .example(
        '$0 record --upstream https://cloud.example.com --out recordings/login.jsonl --mode once',
        'record on the first run, replay (and refuse anything new) on the next',
      )
      .example(
        '$0 record --upstream https://cloud.example.com --append --redact x-device-id',
        'add to a recording; one more header kept out',
      ) as never,
  handler: async (args) => {
    // Loaded when the command runs: the other commands (and --help) never need the server.
    const { startMock } = await import('../server.js');
    const { resolve } = await import('node:path');
    // Looked at before the start, which may create it; the start looks at it the same way.
    const existed = existsSync(resolve(args.out));
    const mock = await startMock({
      ...listenOptionsOf(args),
      publicUrl: args['public-url'],
      adminToken: args['admin-token'],
      ...logOptionsOf(args),
      mode: {
        kind: 'record',
        upstream: args.upstream,
        out: args.out,
        redact: args.redact,
        append: args.append,
        sidecarThreshold: args['sidecar-threshold'],
        recordMode: args.mode,
      },
    }).catch((err: unknown) => cannotStart(err, args.port));
    const mode = mock.options.mode;
    const out = mode.kind === 'record' ? mode.out : args.out;
    const plan = RECORD_MODE_STRATEGIES[args.mode].plan(existed, args.append);
    announce(
      'record',
      mock,
      [
        ['upstream', args.upstream],
        ['recording', out],
        ['mode', describePlan(args.mode, plan)],
        ['next', 'point your client here; Ctrl-C stops and keeps every finished exchange'],
      ],
      args,
    );
  },
};
