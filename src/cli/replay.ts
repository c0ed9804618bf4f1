import type { CommandModule } from 'yargs';
import { parseUserSpec } from '../options.js';
import { MISS_POLICIES, type MissPolicy } from '../record-replay/replayer.js';
import { startMock } from '../server.js';
import { listenOptionsOf, stopOnSignals, withListenOptions, type ListenArgs } from './listening.js';

interface ReplayArgs extends ListenArgs {
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
    withListenOptions(y)
      .option('recording', { type: 'string', demandOption: true, describe: 'recording file made by "record"' })
      .option('on-miss', { choices: MISS_POLICIES, default: 'error' as MissPolicy, describe: 'error: 404 text/plain naming the nearest recorded requests; emulate: the emulator (seeded from the recording) answers; proxy: the upstream answers and the exchange is recorded' })
      .option('upstream', { type: 'string', describe: 'base URL of the service, for --on-miss proxy' })
      .option('match-header', { type: 'string', array: true, describe: 'request headers that take part in matching (replaces the default list)' })
      .option('user', { type: 'string', array: true, describe: 'NAME:PASSWORD for the emulator of --on-miss emulate (default demo:demo)' })
      .option('public-url', { type: 'string', describe: 'our own base URL as clients see it (default: the request Host)' })
      .option('admin-token', { type: 'string', describe: 'require this token on /__admin (Authorization: Bearer TOKEN)' })
      .check((a) => {
        if (a['on-miss'] === 'proxy' && !a.upstream) throw new Error('--on-miss proxy needs --upstream');
        return true;
      }) as never,
  handler: async (args) => {
    const mock = await startMock({
      ...listenOptionsOf(args),
      publicUrl: args['public-url'],
      adminToken: args['admin-token'],
      users: args.user?.length ? parseUserSpec(args.user) : undefined,
      seed: 'empty',
      log: true,
      mode: { kind: 'replay', recording: args.recording, onMiss: args['on-miss'], upstream: args.upstream, matchHeaders: args['match-header'] },
    });
    console.log(`csp-mock replaying ${args.recording} on ${mock.url} (misses: ${args['on-miss']})`);
    stopOnSignals(mock);
  },
};
