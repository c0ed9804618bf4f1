import type { CommandModule } from 'yargs';
import { parseUserSpec } from '../option-table.js';
import type { MissPolicy } from '../index.js';
import { MISS_POLICIES } from '../replay/miss-policy.js';
import type { CliContext } from './context.js';
import { announce, listenOptionsOf, startListening, withListenOptions, type ListenArgs } from './listening.js';
import { withOptions, type OptionValues } from './option-flags.js';

const REPLAY_OPTIONS = [
  'max-age',
  'recording',
  'upstream',
  'match-header',
  'user',
  'public-url',
  'admin-token',
] as const;

type ReplayArgs = ListenArgs &
  Pick<OptionValues, (typeof REPLAY_OPTIONS)[number]> & { recording: string; 'on-miss': MissPolicy };

/**
 * With --max-age, a stale recording (or one of unknown age) stops replay and verify before anything starts:
 * one line on stderr, exit 1, nothing changed.
 */
export async function refuseStaleRecording(recording: string, maxAge: string | undefined): Promise<void> {
  if (maxAge === undefined) return;
  const [{ checkRecordingAge, parseMaxAge }, { locateRecording }] = await Promise.all([
    import('../recording/recording-age.js'),
    import('../replay/scenario-replay.js'),
  ]);
  await checkRecordingAge(locateRecording(recording, process.cwd()), parseMaxAge(maxAge), maxAge);
}

export const replayCommand = (cli: CliContext): CommandModule<object, ReplayArgs> => ({
  command: 'replay',
  describe: 'serve a recording byte for byte (no network); misses answer 404, the emulator or the upstream',
  builder: (y) =>
    withOptions(withListenOptions(y), REPLAY_OPTIONS, {
      recording: { demandOption: true },
      upstream: { describe: 'base URL of the service, for --on-miss proxy' },
      user: {
        describe:
          'NAME:PASSWORD, repeatable: the only logins replay accepts, others get 401 (default: any login) and the emulator of --on-miss emulate uses',
      },
      'public-url': { describe: 'our own base URL as clients see it (default: the request Host)' },
    })
      .option('on-miss', {
        choices: MISS_POLICIES,
        default: 'error' as MissPolicy,
        describe:
          'error: 404 text/plain naming the nearest recorded requests; emulate: the emulator (seeded from the recording) answers; proxy: the upstream answers and the exchange is recorded',
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
    await refuseStaleRecording(args.recording, args['max-age']);
    const users = args.user?.length ? parseUserSpec(args.user) : undefined;
    const mock = await startListening({
      ...listenOptionsOf(args, cli),
      publicUrl: args['public-url'],
      adminToken: args['admin-token'],
      users,
      seed: 'empty',
      mode: {
        kind: 'replay',
        recording: args.recording,
        onMiss: args['on-miss'],
        upstream: args.upstream,
        matchHeaders: args['match-header'],
        users,
      },
    });
    const mode = mock.options.mode;
    announce(
      cli,
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
});
