#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { loadConfigFile, useConfig } from './config-file.js';
import { scenariosCommand } from './scenarios.js';
import { recordCommand } from './record.js';
import { replayCommand } from './replay.js';
import { serveCommand } from './serve.js';
import { verifyCommand } from './verify.js';
import { requestsCommand } from './requests.js';
import { resetCommand, scenarioCommand } from './scenario-control.js';
import { stateCommand } from './state.js';

/**
 * csp-mock's own version. Left to guess, yargs reads the first package.json above the current folder (or
 * above the node_modules holding it): from a user's project, `csp-mock --version` printed the project's
 * version. dist/cli/ and dist/cli-bundle/ both sit two folders below the package root.
 */
function ownVersion(): string {
  const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

/** The part of yargs' internals skipHelpCache reaches (yargs 18.2.0, pinned). */
interface YargsInternals {
  getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } };
}

/**
 * yargs renders a command's whole help text right after starting its handler, in case the handler
 * fails and help is shown: about 12% of `serve`'s CPU before it listens (issue 9). Our fail() prints one
 * line and never the help, and --help is answered before any handler runs, so that text is never read.
 */
function skipHelpCache(_argv: unknown, instance?: unknown): void {
  const usage = (instance as YargsInternals | undefined)?.getInternalMethods?.().getUsageInstance?.();
  if (usage?.cacheHelpMessage) usage.cacheHelpMessage = () => undefined;
}

/** Parses the command line and runs the command (no top-level await: the bundle is CommonJS, see launch.ts). */
async function run(): Promise<void> {
  const argv = hideBin(process.argv);
  // PORT (what hosting platforms set) counts as CSP_MOCK_PORT unless that is given.
  if (process.env['PORT'] !== undefined && process.env['CSP_MOCK_PORT'] === undefined)
    process.env['CSP_MOCK_PORT'] = process.env['PORT'];

  try {
    useConfig(loadConfigFile(argv));
  } catch (err) {
    process.stderr.write(`csp-mock: ${(err as Error).message}\n`);
    process.exit(1);
  }

  try {
    await yargs(argv)
      .scriptName('csp-mock')
      .usage(
        '$0 <command> [options]\n\nA record-and-replay mock of the Mezeo Cloud Storage Platform API v2 (/v2 and /dav).\nEvery option also comes from CSP_MOCK_<OPTION> (e.g. CSP_MOCK_PORT=0) or csp-mock.config.json; a flag wins over the environment, the environment over the file.',
      )
      .command(serveCommand)
      .command(scenariosCommand)
      .command(recordCommand)
      .command(replayCommand)
      .command(verifyCommand)
      .command(scenarioCommand)
      .command(resetCommand)
      .command(requestsCommand)
      .command(stateCommand)
      .option('config', {
        type: 'string',
        describe: 'a JSON file of options (default ./csp-mock.config.json when present)',
      })
      .example('$0 serve', 'the emulator with demo data on http://127.0.0.1:8080 (user demo, password demo)')
      .example('$0 scenario use tag-objects-500', 'switch the running mock to a scenario')
      .example('$0 requests --follow', 'watch what a client sends')
      .demandCommand(1, 'name a command, e.g. "csp-mock serve"')
      .strict()
      // One clear line instead of the whole help text, and a non-zero exit.
      .fail((message: string | null, error: Error | undefined) => {
        process.stderr.write(`csp-mock: ${message ?? error?.message ?? 'failed'}\n(see "csp-mock --help")\n`);
        process.exit(1);
      })
      .alias('h', 'help')
      .version(ownVersion())
      .alias('v', 'version')
      .help()
      .middleware(skipHelpCache)
      .parseAsync();
  } catch (err) {
    // A bad CSP_MOCK_* value or config entry: one line, no stack.
    process.stderr.write(`csp-mock: ${(err as Error).message}\n`);
    process.exit(1);
  }
}

void run();
