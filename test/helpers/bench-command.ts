import { fileURLToPath } from 'node:url';
import { runCommand, type CommandResult } from './run-command.js';

const BENCH = fileURLToPath(new URL('../../dist/tools/bench/run.js', import.meta.url));

/** `npm run bench [-- suite]` as the built script, with `env` over this process's environment, run to its end. */
export function runBench(suite: string | undefined, env: Record<string, string>): Promise<CommandResult> {
  return runCommand(process.execPath, suite === undefined ? [BENCH] : [BENCH, suite], {
    env: { ...process.env, ...env },
  });
}
