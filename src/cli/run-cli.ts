import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import yargs from 'yargs';
import { COMMANDS } from './commands.js';
import { CONFIG_FILE, parseConfigFile } from './config-file.js';
import { CliError, type CliContext } from './context.js';
import { choiceRefusal, OptionValueError, optionChecks, splitEnvironmentLists } from './option-checks.js';
import { tableOptionsInHelp } from './option-flags.js';

/**
 * csp-mock's own version. Left to guess, yargs reads the first package.json above the current folder (or
 * above the node_modules holding it): from a user's project, `csp-mock --version` printed the project's
 * version. dist/cli/ sits two folders below the package root.
 */
function ownVersion(): string {
  const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

/**
 * yargs' refusal of the command line (or a check's), as one line naming the way out, else with a pointer to the
 * help. A command's own failure comes without a message (yargs passes only the error): one line as it is.
 */
function refusal(message: string | null, error: Error | undefined, argv: readonly string[]): CliError {
  const line = choiceRefusal(message ?? error?.message ?? 'failed', argv);
  // A line that names the way out (or a config file's bad field, which yargs passes on as a message)
  // needs no pointer to the help.
  const named =
    error instanceof OptionValueError || line !== message || /did you mean/.test(line) || /^config file /.test(line);
  return new CliError(named ? line : `${line}\n(see "csp-mock --help")`);
}

/**
 * Parses `argv` (the words after `csp-mock`) and runs the command, writing through `cli`; resolves with the
 * exit status. A listening command resolves once it listens, leaving its mock in `cli.running`.
 * Options come from the flags, CSP_MOCK_* (process.env) and the config file, in that order.
 */
export async function runCli(argv: readonly string[], cli: CliContext): Promise<number> {
  // PORT (what hosting platforms set) counts as CSP_MOCK_PORT unless that is given.
  if (process.env['PORT'] !== undefined && process.env['CSP_MOCK_PORT'] === undefined)
    process.env['CSP_MOCK_PORT'] = process.env['PORT'];
  const configNamed =
    argv.some((a) => a === '--config' || a.startsWith('--config=')) || process.env['CSP_MOCK_CONFIG'] !== undefined;
  let parser = yargs([...argv])
    .scriptName('csp-mock')
    // The messages are matched by nothing, but a user's locale must not turn them into a mix of languages.
    .locale('en')
    .usage(
      '$0 <command> [options]\n\nA record-and-replay mock of the Mezeo Cloud Storage Platform API v2 (/v2 and /dav).\nEvery option also comes from CSP_MOCK_<OPTION> (e.g. CSP_MOCK_PORT=0) or csp-mock.config.json; a flag wins over the environment, the environment over the file.',
    )
    // flag > CSP_MOCK_* > config file > default: yargs' own order for these three sources.
    .env('CSP_MOCK')
    .option('config', {
      type: 'string',
      default: CONFIG_FILE,
      defaultDescription: `./${CONFIG_FILE} when present`,
    })
    .config('config', 'a JSON file of options', parseConfigFile(configNamed))
    .middleware(splitEnvironmentLists, true)
    .check(optionChecks(argv));
  for (const command of COMMANDS) parser = parser.command(command(cli));
  // yargs formats the help after it starts a command (for a failure to show, which ours never does): its lines
  // are wrapped, and the table's options shown, only when help is asked for (each took a tenth of serve's start).
  const helpAsked = argv.some((a) => a === 'help' || /^(?:--help(?:=|$)|-[^-]*h)/.test(a));
  tableOptionsInHelp(helpAsked);
  if (!helpAsked) parser = parser.wrap(null);
  let help = '';
  try {
    await parser
      .example('$0 serve', 'the emulator with demo data on http://127.0.0.1:8080 (user demo, password demo)')
      .example('$0 scenario use tag-objects-500', 'switch the running mock to a scenario')
      .example('$0 requests --follow', 'watch what a client sends')
      .demandCommand(1, 'name a command, e.g. "csp-mock serve"')
      .strictCommands()
      .recommendCommands()
      .fail((message: string | null, error: Error | undefined) => {
        throw refusal(message, error, argv);
      })
      .alias('h', 'help')
      .version(ownVersion())
      .alias('v', 'version')
      .help()
      // With a callback, yargs hands back --help and --version text instead of printing it and exiting.
      .parseAsync([...argv], {}, (_err, _args, output) => {
        help = output;
      });
  } catch (err) {
    cli.stderr(`csp-mock: ${(err as Error).message}\n`);
    return err instanceof CliError ? err.code : 1;
  }
  if (help) cli.stdout(`${help}\n`);
  return cli.exitCode;
}
