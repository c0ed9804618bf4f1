#!/usr/bin/env node
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { scenariosCommand } from './scenarios.js';
import { recordCommand } from './record.js';
import { replayCommand } from './replay.js';
import { serveCommand } from './serve.js';
import { verifyCommand } from './verify.js';

await yargs(hideBin(process.argv))
  .scriptName('csp-mock')
  .usage('$0 <command> [options]\n\nA record-and-replay mock of the Mezeo Cloud Storage Platform API v2 (/v2 and /dav).')
  .command(serveCommand)
  .command(scenariosCommand)
  .command(recordCommand)
  .command(replayCommand)
  .command(verifyCommand)
  .demandCommand(1, 'name a command, e.g. "csp-mock serve"')
  .strict()
  // One clear line instead of the whole help text, and a non-zero exit.
  .fail((message: string | null, error: Error | undefined) => {
    process.stderr.write(`csp-mock: ${message ?? error?.message ?? 'failed'}\n(see "csp-mock --help")\n`);
    process.exit(1);
  })
  .help()
  .parseAsync();
