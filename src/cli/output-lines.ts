import type { CliContext } from './context.js';

export type OutputFormat = 'text' | 'json';

/**
 * A line of a listening command's own output on stdout. Under `--log-format json` every stdout line is one JSON
 * object, so `| jq` reads the whole stream: a request line is already one; the rest (the ready facts, warnings,
 * scenario and watch notes, the stop) becomes `{"time", "event", ...}`, through the request log's batched writer,
 * so the lines keep their order.
 */
export function outputLine(
  cli: CliContext,
  format: OutputFormat,
  line: string,
  event?: string,
  fields: object = {},
): void {
  if (format === 'text') {
    cli.stdout(`${line}\n`);
    return;
  }
  if (event === undefined && line.startsWith('{')) {
    cli.stdoutLine(line);
    return;
  }
  const warning = /^warning: /.exec(line);
  cli.stdoutLine(
    JSON.stringify({
      time: new Date().toISOString(),
      event: event ?? (warning ? 'warning' : 'log'),
      ...fields,
      message: warning ? line.slice(warning[0].length) : line,
    }),
  );
}

/** The mock's log (MockOptions.log) for a format: each line through outputLine. */
export function logLineFor(cli: CliContext, format: OutputFormat): (line: string) => void {
  return (line) => outputLine(cli, format, line);
}

/** The ready lines: the URL, then one fact a line (text), or one `ready` event holding them all (json). */
export function readyOutput(
  cli: CliContext,
  format: OutputFormat,
  command: string,
  url: string,
  facts: Array<[string, string]>,
): void {
  if (format === 'json') {
    outputLine(cli, format, `csp-mock ${command} listening on ${url}`, 'ready', {
      command,
      url,
      facts: Object.fromEntries(facts),
    });
    return;
  }
  const lines = [`csp-mock ${command} listening on ${url}`];
  const width = Math.max(...facts.map(([k]) => k.length));
  for (const [key, value] of facts) lines.push(`  ${`${key}:`.padEnd(width + 1)} ${value}`);
  outputLine(cli, format, lines.join('\n'));
}
