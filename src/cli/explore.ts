import { resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import type { CliContext } from './context.js';
import { withRemote, withRemoteOptions, type RemoteArgs } from './remote.js';

interface ConvergeArgs extends RemoteArgs {
  dir: string;
  user: string;
  json: boolean;
}

export const convergeCommand = (cli: CliContext): CommandModule<object, ConvergeArgs> => ({
  command: 'converge',
  describe:
    "check that a synced folder holds what a user's tree in a running mock holds (names, kinds, sizes, contents; no content under two names); exit 1 with the differences",
  builder: (y) =>
    withRemoteOptions(y)
      .option('dir', { type: 'string', demandOption: true, describe: 'the folder a sync client keeps' })
      .option('user', { type: 'string', default: 'demo', describe: 'whose tree the folder mirrors' })
      .option('json', { type: 'boolean', default: false, describe: 'the report as JSON' }),
  handler: async (args) => {
    const { convergeWith, convergeText } = await import('../explore/converge.js');
    const dir = resolve(args.dir);
    await withRemote(cli, args, async (mock) => {
      const report = await convergeWith(dir, mock, { user: args.user });
      cli.stdout(args.json ? `${JSON.stringify(report, null, 2)}\n` : convergeText(report, args.dir, args.user));
      if (!report.converged) cli.exitCode = 1;
    });
  },
});
