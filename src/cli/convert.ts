import { writeFile } from 'node:fs/promises';
import { DEFAULT_MOCK_URL } from '../option-table.js';
import type { CommandModule } from 'yargs';
import type { CliContext } from './context.js';
import { runImport, withImportOptions, type ImportHarArgs } from './import-har.js';

interface ConvertArgs extends Omit<ImportHarArgs, 'har'> {
  input: string;
  to: 'har' | 'jsonl';
}

/**
 * A recording as HAR, to stdout or --out; any problem is one line on stderr and exit 1, with nothing written.
 * Its links name --base-url, else a replay on the default port.
 */
async function recordingToHarFile(cli: CliContext, args: ConvertArgs): Promise<void> {
  const [{ readRecording }, { locateRecording }, { recordingToHar }] = await Promise.all([
    import('../recording/recording-io.js'),
    import('../replay/scenario-replay.js'),
    import('../har/recording-to-har.js'),
  ]);
  const recording = await readRecording(locateRecording(args.input, process.cwd()));
  const text = `${JSON.stringify(recordingToHar(recording, args['base-url'] ?? DEFAULT_MOCK_URL), null, 2)}\n`;
  if (args.out) await writeFile(args.out, text);
  else cli.stdout(text);
}

export const convertCommand = (cli: CliContext): CommandModule<object, ConvertArgs> => ({
  command: 'convert <input>',
  describe: 'a recording to HAR (--to har), or a HAR capture to a recording (--to jsonl, as import-har)',
  builder: (y) =>
    withImportOptions(
      y
        .positional('input', {
          type: 'string',
          demandOption: true,
          describe: 'a recording (path or name), or a HAR file',
        })
        .option('to', { choices: ['har', 'jsonl'] as const, demandOption: true, describe: 'what to write' }),
    )
      .example('$0 convert recordings/session.jsonl --to har > session.har', 'open it in devtools or a HAR viewer')
      .example(
        '$0 convert devtools.har --to jsonl --base-url https://cloud.example.test -o recordings/from-browser.jsonl',
        'the same as import-har',
      ) as never,
  handler: (args) => (args.to === 'har' ? recordingToHarFile(cli, args) : runImport(cli, args, args.input)),
});
