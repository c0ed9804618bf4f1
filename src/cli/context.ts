import type { RunningMock } from '../index.js';

/**
 * What a command writes to and reads besides its options: the process's streams for `csp-mock`, captured ones
 * for a test that runs the command in its own process (runCli).
 */
export interface CliContext {
  /** The words typed (after `csp-mock`), for what yargs does not tell: which flags were typed. */
  readonly argv: readonly string[];
  stdout(text: string): void;
  stderr(text: string): void;
  /**
   * A listening command's lines that must keep their order with its request log (under --log-format json):
   * the process writes them together once a turn (http/stdout-lines.ts).
   */
  stdoutLine(line: string): void;
  /** The request log of a listening command: undefined writes it to stdout through stdoutLine (`log: true`). */
  readonly requestLog?: (line: string) => void;
  /** Where progress lines are drawn (a terminal), if anywhere. */
  readonly progressTo?: { readonly isTTY?: boolean; write(text: string): unknown };
  /** The exit status a command sets (default 0). */
  exitCode: number;
  /** A listening command's mock once it listens: stopped by the caller (on a signal, for the process). */
  running?: ListeningMock;
  /**
   * Called once a listening command's mock listens, before its ready lines: whoever reads them may stop it at
   * once (the process installs its signal handlers here, not after the command returns).
   */
  readonly onListening?: (running: ListeningMock) => void;
}

/** A mock that serve, record or replay started, and what stops it (the address it left goes with it). */
export interface ListeningMock {
  readonly mock: RunningMock;
  readonly format: 'text' | 'json';
  close(): Promise<void>;
}

/** A command's failure as the user sees it: `csp-mock: MESSAGE` on stderr and exit 1 (or `code`). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly code = 1,
  ) {
    super(message);
  }
}

/** A line on stdout. */
export function printLine(cli: CliContext, line: string): void {
  cli.stdout(`${line}\n`);
}
