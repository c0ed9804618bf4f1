import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { CONFIG_FILE, parseConfigFile } from './config-file.js';
import { choiceRefusal, OptionValueError, optionChecks, splitEnvironmentLists } from './option-checks.js';
import { scenariosCommand } from './scenarios.js';
import { recordCommand } from './record.js';
import { replayCommand } from './replay.js';
import { serveCommand } from './serve.js';
import { verifyCommand } from './verify.js';
import { requestsCommand } from './requests.js';
import { resetCommand, scenarioCommand } from './scenario-control.js';
import { stateCommand } from './state.js';
import { changeCommand } from './change.js';
import { auditCommand } from './audit.js';
import { caCommand } from './ca.js';
import { clockCommand } from './clock.js';
import { convertCommand } from './convert.js';
import { importHarCommand } from './import-har.js';
import { tenantCommand } from './tenant.js';
import { convergeCommand } from './explore.js';

/**
 * csp-mock's own version. Left to guess, yargs reads the first package.json above the current folder (or
 * above the node_modules holding it): from a user's project, `csp-mock --version` printed the project's
 * version. dist/cli/ sits two folders below the package root.
 */
function ownVersion(): string {
  const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

/** Parses the command line and runs the command. */
async function run(): Promise<void> {
  const argv = hideBin(process.argv);
  // PORT (what hosting platforms set) counts as CSP_MOCK_PORT unless that is given.
  if (process.env['PORT'] !== undefined && process.env['CSP_MOCK_PORT'] === undefined)
    process.env['CSP_MOCK_PORT'] = process.env['PORT'];
  const configNamed =
    argv.some((a) => a === '--config' || a.startsWith('--config=')) || process.env['CSP_MOCK_CONFIG'] !== undefined;

  try {
    await yargs(argv)
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
      .check(optionChecks(argv))
      .command(serveCommand)
      .command(scenariosCommand)
      .command(recordCommand)
      .command(replayCommand)
      .command(verifyCommand)
      .command(scenarioCommand)
      .command(resetCommand)
      .command(requestsCommand)
      .command(stateCommand)
      .command(changeCommand)
      .command(auditCommand)
      .command(caCommand)
      .command(clockCommand)
      .command(convertCommand)
      .command(importHarCommand)
      .command(tenantCommand)
      .command(convergeCommand)
      .example('$0 serve', 'the emulator with demo data on http://127.0.0.1:8080 (user demo, password demo)')
      .example('$0 scenario use tag-objects-500', 'switch the running mock to a scenario')
      .example('$0 requests --follow', 'watch what a client sends')
      .demandCommand(1, 'name a command, e.g. "csp-mock serve"')
      .strictCommands()
      .recommendCommands()
      // One clear line instead of the whole help text, and a non-zero exit.
      .fail((message: string | null, error: Error | undefined) => {
        const line = choiceRefusal(message ?? error?.message ?? 'failed', argv);
        // A line that names the way out (or a config file's bad field, which yargs passes on as a message)
        // needs no pointer to the help.
        const named =
          error instanceof OptionValueError ||
          line !== message ||
          /did you mean/.test(line) ||
          /^config file /.test(line);
        const hint = named ? '' : '(see "csp-mock --help")\n';
        process.stderr.write(`csp-mock: ${line}\n${hint}`);
        process.exit(1);
      })
      .alias('h', 'help')
      .version(ownVersion())
      .alias('v', 'version')
      .help()
      .parseAsync();
  } catch (err) {
    process.stderr.write(`csp-mock: ${(err as Error).message}\n`);
    process.exit(1);
  }
}

void run();
