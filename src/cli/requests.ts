import type { CommandModule } from 'yargs';
import { printLine, type CliContext } from './context.js';
import type { JournalEntry, JournalFilter, RequestOutcome } from '../index.js';
import { isStatusClass, MAX_WAIT_MS } from '../http/journal-query.js';
import { closestName } from '../scenarios/closest-name.js';
import { OptionValueError } from './option-checks.js';
import { SERVICE_METHODS } from '../http/methods.js';
import { describeNetwork } from '../http/network-record.js';
import { withRemote, withRemoteOptions, type RemoteArgs } from './remote.js';

interface RequestsArgs extends RemoteArgs {
  follow: boolean;
  method?: string;
  path?: string;
  status?: string;
  since?: string;
  limit?: number;
  json: boolean;
  har: boolean;
  interval: number;
  after?: number;
  user?: string;
  fault?: string;
  outcome?: RequestOutcome;
  wait: boolean;
  timeout: number;
  arrived: boolean;
  count: boolean;
}

/** A method the mock does not serve is answered 405 and journaled like any other, but a filter naming one is far likelier a typo. */
const METHODS: readonly string[] = SERVICE_METHODS;

const OUTCOMES: readonly RequestOutcome[] = ['pending', 'answered', 'closed', 'reset', 'truncated', 'aborted'];

const OUTCOME_WORDS: Record<string, string> = {
  reset: 'reset by the mock',
  aborted: 'aborted by the client',
  truncated: 'truncated',
};

/**
 * One line a request: seq, time, method, path, status, duration, user, fault, the network conditions it met
 * (as the server's log shows them), and how it ended when not plainly.
 */
export function requestLine(e: JournalEntry): string {
  const parts = [`#${e.seq}`, e.time.slice(11, 23), e.method, e.path, String(e.status ?? '-')];
  if (e.durationMs !== null) parts.push(`${e.durationMs.toFixed(1)}ms`);
  if (e.user) parts.push(`user=${e.user}`);
  if (e.fault) parts.push(`fault=${e.fault}`);
  if (e.device) parts.push(`device=${e.device}${e.change?.detail ? ` (${e.change.detail})` : ''}`);
  // Worth a word only when what the client saw does not say it: a change that landed behind a failure, or failed.
  const answeredOk = e.status !== null && e.status >= 200 && e.status < 300;
  if (e.committed === true && !answeredOk) parts.push('(committed)');
  if (e.change?.error) parts.push(`(failed: ${e.change.error})`);
  const network = describeNetwork(e.network ?? undefined);
  if (network) parts.push(network);
  if (e.outcome !== 'answered') parts.push(`(${OUTCOME_WORDS[e.outcome] ?? e.outcome})`);
  return parts.join(' ');
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export const requestsCommand = (cli: CliContext): CommandModule<object, RequestsArgs> => ({
  command: 'requests',
  describe: 'print the request journal of a running mock (credentials removed)',
  builder: (y) =>
    withRemoteOptions(y)
      .option('follow', {
        alias: 'f',
        type: 'boolean',
        default: false,
        describe: 'keep printing new requests until Ctrl-C',
      })
      .option('method', { type: 'string', describe: 'only this method (GET, PUT, PROPFIND, ...)' })
      .option('path', { type: 'string', describe: 'only paths matching this glob ("*" one segment, "**" any)' })
      .option('status', { type: 'string', describe: 'only this status (404) or class of them (4xx)' })
      .option('since', { type: 'string', describe: 'only requests from this ISO time on' })
      .option('user', { type: 'string', describe: "only this user's requests" })
      .option('fault', { type: 'string', describe: 'only requests this fault rule applied to' })
      .option('outcome', { type: 'string', choices: OUTCOMES, describe: 'only requests that ended this way' })
      .option('wait', {
        type: 'boolean',
        default: false,
        describe:
          'wait for the first matching request from now on (or past --since / --after), print it, exit 1 on --timeout',
      })
      .option('after', {
        type: 'number',
        describe: "only requests after this seq (a mark from an earlier line's #seq)",
      })
      .option('timeout', { type: 'number', default: 30_000, describe: 'with --wait: give up after this many ms' })
      .option('arrived', {
        type: 'boolean',
        default: false,
        describe: 'with --wait: as soon as the request arrives, before its answer',
      })
      .option('count', { type: 'boolean', default: false, describe: 'print how many requests match' })
      .option('limit', { type: 'number', describe: 'only the last N requests (with --follow: then the new ones)' })
      .option('json', { type: 'boolean', default: false, describe: 'one JSON object a line' })
      .option('har', {
        type: 'boolean',
        default: false,
        describe: 'the journal as one HAR 1.2 document (bodies when the mock keeps them: serve --journal-bodies)',
      })
      .option('interval', { type: 'number', default: 500, hidden: true, describe: 'poll interval of --follow, ms' })
      .check((a) => {
        const status = a['status'] as string | undefined;
        if (status !== undefined && !isStatusClass(status) && !/^[1-5]\d\d$/.test(status))
          throw new OptionValueError(
            `--status must be an HTTP status from 100 to 599 (404) or a class of them (4xx), got "${status}"`,
          );
        const method = a['method'] as string | undefined;
        if (method !== undefined && !METHODS.includes(method.toUpperCase())) {
          const near = closestName(method.toUpperCase(), METHODS);
          throw new OptionValueError(
            `--method ${method} is no method the mock serves${near ? `; did you mean ${near}?` : ` (${METHODS.join(', ')})`}`,
          );
        }
        if (a['har'] && (a['follow'] || a['json'] || a['wait'] || a['count']))
          throw new Error('--har prints one document: not with --follow, --json, --wait or --count');
        const limit = a['limit'] as number | undefined;
        if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1))
          throw new Error(`--limit must be a whole number of requests (1 or more), got ${limit}`);
        const timeout = a['timeout'] as number;
        if (!(Number.isInteger(timeout) && timeout >= 0 && timeout <= MAX_WAIT_MS))
          throw new Error(`--timeout must be a whole number of milliseconds from 0 to ${MAX_WAIT_MS}, got ${timeout}`);
        if ([a['wait'], a['follow'], a['count']].filter(Boolean).length > 1)
          throw new Error('give one of --wait, --follow and --count');
        return true;
      })
      .example('$0 requests', 'everything the mock kept')
      .example('$0 requests --limit 20', 'the last 20')
      .example('$0 requests --method PUT --path "/v2/files/**" --status 500', 'failed uploads')
      .example('$0 requests --follow --json | jq .fault', 'live, as JSON')
      .example('$0 requests --har > session.har', 'for devtools or a HAR viewer')
      .example(
        '$0 requests --wait --method PUT --path "/v2/files/*/content" --timeout 10000',
        'block until an upload is done',
      )
      .example('$0 requests --count --status 503', 'how many requests got a 503') as never,
  handler: (args) =>
    withRemote(cli, args, async (mock) => {
      const filter: JournalFilter = {
        method: args.method,
        path: args.path,
        status: args.status === undefined || isStatusClass(args.status) ? args.status : Number(args.status),
        since: args.since,
        user: args.user,
        fault: args.fault,
        outcome: args.outcome,
      };
      let limit = args.limit;
      const print = (e: JournalEntry): void => printLine(cli, args.json ? JSON.stringify(e) : requestLine(e));
      if (args.har) {
        const { journalToHar } = await import('../har/journal-to-har.js');
        const entries = await mock.requests({ ...filter, after: args.after, limit });
        cli.stdout(`${JSON.stringify(journalToHar(entries, mock.url), null, 2)}\n`);
        return;
      }
      if (args.wait) {
        print(
          await mock.waitForRequest(
            { ...filter, after: args.after },
            { timeoutMs: args.timeout, arrived: args.arrived },
          ),
        );
        return;
      }
      if (args.count) {
        printLine(cli, String(await mock.countRequests({ ...filter, after: args.after })));
        return;
      }
      if (!args.follow) {
        for (const e of await mock.requests({ ...filter, after: args.after, limit })) print(e);
        return;
      }
      // Completed entries only; a pending one is printed once it completes.
      let cursor = args.after ?? 0;
      const printed = new Set<number>();
      let stop = false;
      process.once('SIGINT', () => (stop = true));
      process.once('SIGTERM', () => (stop = true));
      while (!stop) {
        const entries = await mock.requests({ ...filter, after: cursor, limit });
        limit = undefined;
        let firstPending: number | undefined;
        for (const e of entries) {
          if (e.outcome === 'pending') firstPending ??= e.seq;
          else if (!printed.has(e.seq)) {
            printed.add(e.seq);
            print(e);
          }
        }
        const last = entries.at(-1)?.seq;
        if (last !== undefined) cursor = firstPending !== undefined ? firstPending - 1 : last;
        for (const seq of printed) if (seq <= cursor) printed.delete(seq);
        await sleep(args.interval);
      }
    }),
});
