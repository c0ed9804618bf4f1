import type { CommandModule } from 'yargs';
import type { CliContext } from './context.js';
import { withOptions, type OptionValues } from './option-flags.js';
import { refuseStaleRecording } from './replay.js';
import type { VerifySeed } from '../verify/verify-recording.js';
import { progressTo } from './progress-line.js';

interface VerifyArgs extends Pick<OptionValues, 'max-age'> {
  recording: string;
  seed: VerifySeed;
  scenario?: string;
}

export const verifyCommand = (cli: CliContext): CommandModule<object, VerifyArgs> => ({
  command: 'verify',
  describe:
    'replay every recorded request to the service against a fresh emulator and print where it differs (exit 1 if it does, or if nothing could be sent)',
  builder: (y) =>
    withOptions(y, ['max-age'])
      .option('recording', {
        type: 'string',
        demandOption: true,
        describe:
          'recording file made by "record" (a path, or a NAME in ./recordings or shipped, e.g. example-session)',
      })
      .option('seed', {
        choices: ['auto', 'recording', 'empty', 'demo'] as const,
        default: 'auto' as const,
        describe:
          'what the fresh emulator starts with: recording = the account as the recording found it; auto = that when the recording uses objects it did not create, else empty',
      })
      .option('scenario', {
        type: 'string',
        describe: 'scenario NAME or PATH the fresh emulator runs (default: default)',
      })
      .example('$0 verify --recording example-session', 'the shipped recording against this emulator')
      .example(
        '$0 verify --recording recordings/my-account.json --seed recording',
        'start from the account the recording found',
      ) as never,
  handler: async (args) => {
    await refuseStaleRecording(args.recording, args['max-age']);
    // Loaded when verify runs: the other commands never need them.
    const [{ readRecording }, { locateRecording }, { verifyRecording }] = await Promise.all([
      import('../recording/recording-io.js'),
      import('../replay/scenario-replay.js'),
      import('../verify/verify-recording.js'),
    ]);
    const recording = await readRecording(locateRecording(args.recording, process.cwd()));
    const report = await verifyRecording(recording, {
      seed: args.seed,
      scenario: args.scenario,
      onProgress: progressTo(cli, {}),
    });
    cli.stdout(report.text);
    cli.exitCode = report.passed ? 0 : 1;
  },
});
