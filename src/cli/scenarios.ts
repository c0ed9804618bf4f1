import type { CommandModule } from 'yargs';
import { printLine, type CliContext } from './context.js';
import { listScenarios } from '../scenarios/catalog.js';

/** `csp-mock scenarios`: the built-in and local (./scenarios) scenarios with their descriptions. */
export const scenariosCommand = (cli: CliContext): CommandModule<object, object> => ({
  command: 'scenarios',
  describe: 'list the built-in and local (./scenarios) scenarios',
  handler: () => {
    const all = listScenarios(process.cwd());
    const width = Math.max(...all.map((s) => s.name.length));
    for (const s of all) {
      const where = s.builtIn ? 'built-in' : s.file;
      const alias = s.declaredName ? ` [also "${s.declaredName}"]` : '';
      printLine(cli, `${s.name.padEnd(width)}  ${s.description}${alias}${s.builtIn ? '' : ` (${where})`}`);
    }
    printLine(
      cli,
      `\nserve one with: csp-mock serve --scenario NAME (or a path to a scenario file); switch a running mock with: csp-mock scenario use NAME`,
    );
  },
});
