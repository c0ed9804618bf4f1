import type { CommandModule } from 'yargs';
import type { JournalEntry, JournalFilter } from '../http/journal.js';
import { describeNetwork } from '../http/network-record.js';
import { withRemote, withRemoteOptions, type RemoteArgs } from './remote-options.js';

interface RequestsArgs extends RemoteArgs {
  follow: boolean;
  method?: string;
  path?: string;
  status?: number;
  since?: string;
  limit?: number;
  json: boolean;
  interval: number;
}

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

export const requestsCommand: CommandModule<object, RequestsArgs> = {
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
      .option('method', { type: 'string', describe: 'only this method' })
      .option('path', { type: 'string', describe: 'only paths matching this glob ("*" one segment, "**" any)' })
      .option('status', { type: 'number', describe: 'only this status' })
      .option('since', { type: 'string', describe: 'only requests from this ISO time on' })
      .option('limit', { type: 'number', describe: 'only the last N requests (with --follow: then the new ones)' })
      .option('json', { type: 'boolean', default: false, describe: 'one JSON object a line' })
      .option('interval', { type: 'number', default: 500, hidden: true, describe: 'poll interval of --follow, ms' })
      .check((a) => {
        const status = a['status'] as number | undefined;
        if (status !== undefined && !(Number.isInteger(status) && status >= 100 && status <= 599))
          throw new Error(`--status must be an HTTP status from 100 to 599, got ${status}`);
        const limit = a['limit'] as number | undefined;
        if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1))
          throw new Error(`--limit must be a whole number of requests (1 or more), got ${limit}`);
        return true;
      })
      .example('$0 requests', 'everything the mock kept')
      .example('$0 requests --limit 20', 'the last 20')
      .example('$0 requests --method PUT --path "/v2/files/**" --status 500', 'failed uploads')
      .example('$0 requests --follow --json | jq .fault', 'live, as JSON') as never,
  handler: (args) =>
    withRemote(args, async (mock) => {
      const filter: JournalFilter = { method: args.method, path: args.path, status: args.status, since: args.since };
      let limit = args.limit;
      const print = (e: JournalEntry): void => console.log(args.json ? JSON.stringify(e) : requestLine(e));
      if (!args.follow) {
        for (const e of await mock.requests({ ...filter, limit })) print(e);
        return;
      }
      // Completed entries only; a pending one is printed once it completes.
      let cursor = 0;
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
};
