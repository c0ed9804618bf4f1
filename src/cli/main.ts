import { hideBin } from 'yargs/helpers';
import { stdoutLine } from '../http/stdout-lines.js';
import type { CliContext, ListeningMock } from './context.js';
import { outputLine } from './output-lines.js';
import { runCli } from './run-cli.js';

/**
 * Ctrl-C or SIGTERM closes a listening command's mock (flushing a recording) and exits 0. Under npx
 * (npm_command "exec") npm runs the command through a shell and passes a SIGTERM on to the shell only, which
 * ends without passing it on: the mock leaves with its parent instead (a documented process.ppid that changes
 * when it is gone).
 */
function stopOnSignals(cli: CliContext, running: ListeningMock): void {
  let stopping = false;
  process.once('exit', () => void running.close());
  const stop = (why: string): void => {
    if (stopping) return;
    stopping = true;
    outputLine(cli, running.format, `${why}: stopping`, 'stop', { reason: why });
    void running.close().then(() => process.exit(0));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  if (process.env['npm_command'] === 'exec') {
    const parent = process.ppid;
    setInterval(() => {
      if (process.ppid !== parent) stop('npx ended');
    }, 250).unref();
  }
}

const argv = hideBin(process.argv);
const cli: CliContext = {
  argv,
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  stdoutLine,
  progressTo: process.stderr,
  exitCode: 0,
  onListening: (running) => stopOnSignals(cli, running),
};
const code = await runCli(argv, cli);
if (!cli.running && code !== 0) process.exit(code);
