import type { Argv, CommandModule } from 'yargs';
import { printLine, type CliContext } from './context.js';
import type { HarImportSummary } from '../index.js';
import { progressTo } from './progress-line.js';

export interface ImportHarArgs {
  har: string;
  'base-url'?: string;
  out?: string;
  redact?: string[];
  'sidecar-threshold': number;
}

/** The options import-har and `convert --to jsonl` share. */
export function withImportOptions<T>(y: Argv<T>): Argv<T & Omit<ImportHarArgs, 'har'>> {
  return y
    .option('base-url', {
      type: 'string',
      describe:
        'the service address, e.g. https://cloud.example.test: from a capture, entries elsewhere are skipped; in a HAR made from a recording, links name it (default http://127.0.0.1:8080)',
    })
    .option('out', {
      alias: 'o',
      type: 'string',
      describe: 'the recording to write (replaced; large bodies go to <name>.bodies/)',
    })
    .option('redact', {
      type: 'string',
      array: true,
      describe: 'more header or query names never to write (Authorization, cookies and secret-looking names never are)',
    })
    .option('sidecar-threshold', {
      type: 'number',
      default: 64 * 1024,
      describe: 'bodies larger than this many bytes go to sidecar files',
    }) as unknown as Argv<T & Omit<ImportHarArgs, 'har'>>;
}

function summaryLine(har: string, s: HarImportSummary): string {
  const skipped = [
    s.skipped.otherSite && `${s.skipped.otherSite} elsewhere than --base-url`,
    s.skipped.admin && `${s.skipped.admin} to the mock's /__admin`,
    s.skipped.unanswered && `${s.skipped.unanswered} never answered`,
    s.skipped.fromCache && `${s.skipped.fromCache} from the browser's cache`,
  ].filter(Boolean);
  const parts = [`imported ${s.exchanges} exchange(s) from ${har} into ${s.out}`];
  if (skipped.length) parts.push(`skipped ${skipped.join(', ')}`);
  if (s.outsideService)
    parts.push(
      `${s.outsideService} of the imported are not to the service (/v2, /dav, /cdmi; a web app's own pages): replay serves them, verify skips them`,
    );
  if (s.missingBodies) parts.push(`${s.missingBodies} answer(s) without their body in the HAR replay empty`);
  if (s.lostRequestBodies)
    parts.push(
      `${s.lostRequestBodies} request body(ies) the HAR kept only as text (binary uploads) match any body on replay`,
    );
  return parts.join('; ');
}

/** Reads, checks and imports a HAR; any problem is one line on stderr and exit 1, with nothing written. */
export async function runImport(cli: CliContext, args: Omit<ImportHarArgs, 'har'>, har: string): Promise<void> {
  const [{ readHar }, { importHar }] = await Promise.all([
    import('../har/har-read.js'),
    import('../har/har-to-recording.js'),
  ]);
  if (!args['base-url']) throw new Error('name the service address in the capture with --base-url URL');
  if (!args.out) throw new Error('name the recording to write with --out FILE (-o)');
  const summary = await importHar(await readHar(har), har, {
    baseUrl: args['base-url'],
    out: args.out,
    redact: args.redact,
    sidecarThreshold: args['sidecar-threshold'],
    onProgress: progressTo(cli, {}),
  });
  printLine(cli, summaryLine(har, summary));
}

export const importHarCommand = (cli: CliContext): CommandModule<object, ImportHarArgs> => ({
  command: 'import-har <har>',
  describe:
    'turn a HAR capture (browser devtools, Playwright) into a recording, redacted and normalised as record does',
  builder: (y) =>
    withImportOptions(y.positional('har', { type: 'string', demandOption: true, describe: 'the HAR file' }))
      .demandOption(['base-url', 'out'])
      .example(
        '$0 import-har devtools.har --base-url https://cloud.example.test -o recordings/from-browser.jsonl',
        'then: csp-mock replay --recording recordings/from-browser.jsonl',
      ) as never,
  handler: (args) => runImport(cli, args, args.har),
});
