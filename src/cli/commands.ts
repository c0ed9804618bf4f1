import type { CommandModule } from 'yargs';
import type { CliContext } from './context.js';
import { auditCommand } from './audit.js';
import { caCommand } from './ca.js';
import { changeCommand } from './change.js';
import { clockCommand } from './clock.js';
import { convertCommand } from './convert.js';
import { convergeCommand, exploreCommand } from './explore.js';
import { importHarCommand } from './import-har.js';
import { recordCommand } from './record.js';
import { replayCommand } from './replay.js';
import { requestsCommand } from './requests.js';
import { resetCommand, scenarioCommand } from './scenario-control.js';
import { scenariosCommand } from './scenarios.js';
import { serveCommand } from './serve.js';
import { stateCommand } from './state.js';
import { tenantCommand } from './tenant.js';
import { verifyCommand } from './verify.js';

/** A command of `csp-mock`, made for the context it writes to. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each command has its own arguments
export type CliCommand = (cli: CliContext) => CommandModule<object, any>;

/** Every command, in the order --help lists them: a new command is one line here. */
export const COMMANDS: readonly CliCommand[] = [
  serveCommand,
  scenariosCommand,
  recordCommand,
  replayCommand,
  verifyCommand,
  scenarioCommand,
  resetCommand,
  requestsCommand,
  stateCommand,
  changeCommand,
  auditCommand,
  caCommand,
  clockCommand,
  convertCommand,
  importHarCommand,
  tenantCommand,
  convergeCommand,
  exploreCommand,
];
