import type { CommandModule } from 'yargs';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { RECORD_MODES, RECORD_MODE_STRATEGIES, describePlan, type RecordMode } from '../record/record-modes.js';
import type { CliContext } from './context.js';
import { announce, listenOptionsOf, startListening, withListenOptions, type ListenArgs } from './listening.js';
import { withOptions, type OptionValues } from './option-flags.js';

const RECORD_OPTIONS = [
  'upstream',
  'upstream-ca',
  'out',
  'redact',
  'append',
  'public-url',
  'admin-token',
  'sidecar-threshold',
] as const;

type RecordArgs = ListenArgs &
  Pick<OptionValues, (typeof RECORD_OPTIONS)[number]> & { upstream: string; mode: RecordMode };

export const recordCommand = (cli: CliContext): CommandModule<object, RecordArgs> => ({
  command: 'record',
  describe: 'a reverse proxy to the real service that writes every exchange to a recording',
  builder: (y) =>
    withOptions(withListenOptions(y), RECORD_OPTIONS, {
      upstream: { demandOption: true },
      'public-url': { describe: 'our own base URL as clients see it (default: the request Host)' },
    })
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
    // Looked at before the start, which may create it; the start looks at it the same way.
    const existed = existsSync(resolve(args.out));
    const mock = await startListening({
      ...listenOptionsOf(args, cli),
      publicUrl: args['public-url'],
      adminToken: args['admin-token'],
      mode: {
        kind: 'record',
        upstream: args.upstream,
        out: args.out,
        redact: args.redact,
        append: args.append,
        sidecarThreshold: args['sidecar-threshold'],
        recordMode: args.mode,
        upstreamCa: args['upstream-ca'],
      },
    });
    const mode = mock.options.mode;
    const out = mode.kind === 'record' ? mode.out : args.out;
    const plan = RECORD_MODE_STRATEGIES[args.mode].plan(existed, args.append);
    announce(
      cli,
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
});
