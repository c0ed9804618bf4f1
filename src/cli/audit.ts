import type { CommandModule } from 'yargs';
import { CliError, type CliContext } from './context.js';
import {
  AUDIT_RULES,
  DEFAULT_AUDIT_SETTINGS,
  auditSettings,
  type AuditOptions,
  type AuditRuleId,
} from '../audit/audit-types.js';
import type { JournalEntry } from '../http/journal.js';
import { withRemote, withRemoteOptions, type RemoteArgs } from './remote.js';

interface AuditArgs extends RemoteArgs {
  file?: string;
  json: boolean;
  rule?: string[];
  user?: string;
  'fail-on': 'warning' | 'error' | 'none';
  'max-findings'?: number;
  'min-backoff-ms': number;
  'retry-after-tolerance-ms': number;
  'min-poll-interval-ms': number;
  'min-polls': number;
  'revalidate-after': number;
  'n-plus-one-children': number;
}

const d = DEFAULT_AUDIT_SETTINGS;

/** Prints the report and sets the exit code: 1 when the findings pass the gate (for CI). */
async function report(cli: CliContext, entries: JournalEntry[], args: AuditArgs): Promise<void> {
  // The rules load when a report is made, not with every command of the CLI.
  const [{ auditJournal }, { auditFails, auditText }] = await Promise.all([
    import('../audit/audit.js'),
    import('../audit/audit-text.js'),
  ]);
  const options: AuditOptions = {
    rules: args.rule as AuditRuleId[] | undefined,
    minBackoffMs: args['min-backoff-ms'],
    retryAfterToleranceMs: args['retry-after-tolerance-ms'],
    minPollIntervalMs: args['min-poll-interval-ms'],
    minPolls: args['min-polls'],
    revalidateAfter: args['revalidate-after'],
    nPlusOneChildren: args['n-plus-one-children'],
  };
  const mine = args.user === undefined ? entries : entries.filter((e) => e.user === args.user);
  const result = auditJournal(mine, options);
  cli.stdout(args.json ? `${JSON.stringify(result, null, 2)}\n` : auditText(result));
  const failed = auditFails(result, { failOn: args['fail-on'], maxFindings: args['max-findings'] });
  if (failed) {
    cli.stderr(`csp-mock: audit failed: ${failed}\n`);
    cli.exitCode = 1;
  }
}

export const auditCommand = (cli: CliContext): CommandModule<object, AuditArgs> => ({
  command: 'audit',
  describe:
    "report what a client did that a careful client does not (retries, resumes, revalidation, N+1, polling), from a running mock's journal or a saved one",
  builder: (y) =>
    withRemoteOptions(y)
      .option('file', {
        type: 'string',
        describe: 'a saved journal (csp-mock requests --json > FILE) instead of the running mock',
      })
      .option('json', { type: 'boolean', default: false, describe: 'the report as JSON' })
      .option('rule', { type: 'string', array: true, choices: AUDIT_RULES, describe: 'only these rules' })
      .option('user', { type: 'string', describe: "only this user's requests" })
      .option('fail-on', {
        choices: ['warning', 'error', 'none'] as const,
        default: 'error' as const,
        describe: 'exit 1 when a finding of this severity or worse is found',
      })
      .option('max-findings', { type: 'number', describe: 'exit 1 when there are more findings than this' })
      .option('min-backoff-ms', {
        type: 'number',
        default: d.minBackoffMs,
        describe: 'retry-without-backoff: the least wait before a retry',
      })
      .option('retry-after-tolerance-ms', {
        type: 'number',
        default: d.retryAfterToleranceMs,
        describe: 'retry-after-ignored: how early a retry may come',
      })
      .option('min-poll-interval-ms', {
        type: 'number',
        default: d.minPollIntervalMs,
        describe: 'polling-too-fast: the stated rate',
      })
      .option('min-polls', {
        type: 'number',
        default: d.minPolls,
        describe: 'polling-too-fast: reads in a row that make a finding',
      })
      .option('revalidate-after', {
        type: 'number',
        default: d.revalidateAfter,
        describe: 'etag-not-revalidated: full reads of one entity that make a finding',
      })
      .option('n-plus-one-children', {
        type: 'number',
        default: d.nPlusOneChildren,
        describe: 'n-plus-one-listing: children read one by one that make a finding',
      })
      .check((a) => {
        const max = a['max-findings'] as number | undefined;
        if (max !== undefined && !(Number.isInteger(max) && max >= 0))
          throw new Error(`--max-findings must be a whole number (0 or more), got ${max}`);
        auditSettings({
          minBackoffMs: a['min-backoff-ms'] as number,
          retryAfterToleranceMs: a['retry-after-tolerance-ms'] as number,
          minPollIntervalMs: a['min-poll-interval-ms'] as number,
          minPolls: a['min-polls'] as number,
          revalidateAfter: a['revalidate-after'] as number,
          nPlusOneChildren: a['n-plus-one-children'] as number,
        });
        return true;
      })
      .example('$0 audit', "the running mock's journal")
      .example('$0 audit --fail-on warning --json > audit.json', 'in CI: any finding fails the job')
      .example('$0 requests --json > run.jsonl && $0 audit --file run.jsonl', 'a saved journal') as never,
  handler: async (args) => {
    if (args.file !== undefined) {
      try {
        const { readJournalFile } = await import('../audit/journal-file.js');
        await report(cli, await readJournalFile(args.file), args);
      } catch (err) {
        throw new CliError((err as Error).message);
      }
      return;
    }
    await withRemote(cli, args, async (mock) => report(cli, await mock.requests(), args));
  },
});
