import type { CommandModule } from 'yargs';
import { readRecording } from '../record-replay/recording-io.js';
import { locateRecording } from '../record-replay/scenario-replay.js';
import { verifyRecording } from '../record-replay/verify.js';

interface VerifyArgs {
  recording: string;
  seed: 'empty' | 'demo';
  scenario?: string;
}

export const verifyCommand: CommandModule<object, VerifyArgs> = {
  command: 'verify',
  describe: 'replay every recorded request against a fresh emulator and print where it differs (exit 1 if it does)',
  builder: (y) =>
    y
      .option('recording', { type: 'string', demandOption: true, describe: 'recording file made by "record"' })
      .option('seed', { choices: ['empty', 'demo'] as const, default: 'empty' as const, describe: 'what the fresh emulator starts with' })
      .option('scenario', { type: 'string', describe: 'scenario NAME or PATH the fresh emulator runs (default: default)' }) as never,
  handler: async (args) => {
    const report = await verifyRecording(await readRecording(locateRecording(args.recording, process.cwd())), { seed: args.seed, scenario: args.scenario });
    process.stdout.write(report.text);
    process.exitCode = report.differing.length ? 1 : 0;
  },
};
