import type { CommandModule } from 'yargs';
import { refuseStaleRecording, withMaxAgeOption, type MaxAgeArgs } from './max-age.js';
import { parseUserSpec } from '../option-defaults.js';
import { MISS_POLICIES, type MissPolicy } from '../replay/miss-policy.js';
import {
  cannotStart,
  listenOptionsOf,
  logOptionsOf,
  announce,
  withListenOptions,
  type ListenArgs,
} from './listening.js';

interface ReplayArgs extends ListenArgs, MaxAgeArgs {
  recording: string;
  'on-miss': MissPolicy;
  upstream?: string;
  'match-header'?: string[];
  user?: string[];
  'public-url'?: string;
  'admin-token'?: string;
}

export const replayCommand: CommandModule<object, ReplayArgs> = {
  command: 'replay',
  describe: 'serve a recording byte for byte (no network); misses answer 404, the emulator or the upstream',
  builder: (y) =>
    withMaxAgeOption(withListenOptions(y))
      .option('recording', {
        type: 'string',
        demandOption: true,
        describe:
          'recording file made by "record" (a path, or a NAME in ./recordings or shipped with csp-mock, e.g. example-session)',
      })
      .option('on-miss', {
        choices: MISS_POLICIES,
        default: 'error' as MissPolicy,
        describe:
          'error: 404 text/plain naming the nearest recorded requests; emulate: the emulator (seeded from the recording) answers; proxy: the upstream answers and the exchange is recorded',
      })
      .option('upstream', { type: 'string', describe: 'base URL of the service, for --on-miss proxy' })
      .option('match-header', {
        type: 'string',
        array: true,
        describe: 'request headers that take part in matching (replaces the default list)',
      })
      .option('user', {
        type: 'string',
        array: true,
        describe:
          'NAME:PASSWORD, repeatable: the only logins replay accepts, others get 401 (default: any login) and the emulator of --on-miss emulate uses',
      })
      .option('public-url', {
        type: 'string',
        describe: 'our own base URL as clients see it (default: the request Host)',
      })
      .option('admin-token', {
        type: 'string',
        describe: 'require this token on /__admin (Authorization: Bearer TOKEN)',
      })
      .check((a) => {
        if (a['on-miss'] === 'proxy' && !a.upstream) throw new Error('--on-miss proxy needs --upstream');
        return true;
      })
      .example('$0 replay --recording example-session', 'the recording shipped with csp-mock')
      .example('$0 replay --recording recordings/session.jsonl --max-age 30d', 'refuse a recording older than 30 days')
      .example(
        '$0 replay --recording recordings/session.json --on-miss emulate -p 0',
        'unrecorded requests answered by the emulator',
      )
      .example(
        '$0 replay --recording session.json --user demo:secret',
        'a wrong password gets 401, as the service would answer',
      ) as never,
  handler: async (args) => {
    await refuseStaleRecording(args.recording, args);
    const users = args.user?.length ? parseUserSpec(args.user) : undefined;
    // Loaded when the command runs: the other commands (and --help) never need the server.
    const { startMock } = await import('../server.js');
    const mock = await startMock({
      ...listenOptionsOf(args),
      publicUrl: args['public-url'],
      adminToken: args['admin-token'],
      users,
      seed: 'empty',
      ...logOptionsOf(args),
      mode: {
        kind: 'replay',
        recording: args.recording,
        onMiss: args['on-miss'],
        upstream: args.upstream,
        matchHeaders: args['match-header'],
        users,
      },
    }).catch((err: unknown) => cannotStart(err, args.port));
    const mode = mock.options.mode;
    announce(
      'replay',
      mock,
      [
        ['recording', mode.kind === 'replay' && typeof mode.recording === 'string' ? mode.recording : args.recording],
        ['misses', args['on-miss'] === 'error' ? 'error (404 naming the nearest recorded requests)' : args['on-miss']],
        [
          'users',
          users ? `${Object.keys(users).join(', ')} (others get 401)` : 'any login (--user NAME:PASSWORD checks them)',
        ],
      ],
      args,
    );
  },
};
