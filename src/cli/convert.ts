import { writeFile } from 'node:fs/promises';
import type { CommandModule } from 'yargs';
import { runImport, withImportOptions, type ImportHarArgs } from './import-har.js';

interface ConvertArgs extends Omit<ImportHarArgs, 'har'> {
  input: string;
  to: 'har' | 'jsonl';
}

/** Where links point in a HAR made from a recording, unless --base-url says: a replay on the default port. */
const DEFAULT_HAR_BASE_URL = 'http://127.0.0.1:8080';

/** A recording as HAR, to stdout or --out; any problem is one line on stderr and exit 1, with nothing written. */
async function recordingToHarFile(args: ConvertArgs): Promise<void> {
  const [{ readRecording }, { locateRecording }, { recordingToHar }] = await Promise.all([
    import('../recording/recording-io.js'),
    import('../replay/scenario-replay.js'),
    import('../har/recording-to-har.js'),
  ]);
  try {
    const recording = await readRecording(locateRecording(args.input, process.cwd()));
    const text = `${JSON.stringify(recordingToHar(recording, args['base-url'] ?? DEFAULT_HAR_BASE_URL), null, 2)}\n`;
    if (args.out) await writeFile(args.out, text);
    else process.stdout.write(text);
  } catch (err) {
    process.stderr.write(`csp-mock: ${(err as Error).message}\n`);
    process.exit(1);
  }
}

export const convertCommand: CommandModule<object, ConvertArgs> = {
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
  handler: (args) => (args.to === 'har' ? recordingToHarFile(args) : runImport(args, args.input)),
};
