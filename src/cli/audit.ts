import type { Argv, CommandModule } from 'yargs';
import type { CliContext } from './context.js';
import {
  AUDIT_RULES,
  DEFAULT_AUDIT_SETTINGS,
  auditSettings,
  type AuditOptions,
  type AuditReport,
  type AuditRuleId,
} from '../audit/audit-types.js';
import { withRemote, withRemoteOptions, type RemoteArgs } from './remote.js';

/** The audit's thresholds: each a flag, its name in kebab case (minBackoffMs is --min-backoff-ms). */
const THRESHOLDS = {
  minBackoffMs: 'retry-without-backoff: the least wait before a retry',
  retryAfterToleranceMs: 'retry-after-ignored: how early a retry may come',
  minPollIntervalMs: 'polling-too-fast: the stated rate',
  minPolls: 'polling-too-fast: reads in a row that make a finding',
  revalidateAfter: 'etag-not-revalidated: full reads of one entity that make a finding',
  nPlusOneChildren: 'n-plus-one-listing: children read one by one that make a finding',
} as const;

type Threshold = keyof typeof THRESHOLDS;

interface AuditArgs extends RemoteArgs, Record<Threshold, number> {
  file?: string;
  json: boolean;
  rule?: AuditRuleId[];
  user?: string;
  'fail-on': 'warning' | 'error' | 'none';
  'max-findings'?: number;
}

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The thresholds given (yargs hands every flag under its camelCase name too). */
const thresholdsOf = (args: Record<string, unknown>): AuditOptions =>
  Object.fromEntries(Object.keys(THRESHOLDS).map((name) => [name, args[name]]));

function withThresholds<T>(y: Argv<T>): Argv<T> {
  let built = y;
  for (const [name, describe] of Object.entries(THRESHOLDS))
    built = built.option(kebab(name), { type: 'number', default: DEFAULT_AUDIT_SETTINGS[name as Threshold], describe });
  return built;
}

/** Prints the report and sets the exit code: 1 when the findings pass the gate (for CI). */
async function report(cli: CliContext, result: AuditReport, args: AuditArgs): Promise<void> {
  const { auditFails, auditText } = await import('../audit/audit-text.js');
  cli.stdout(args.json ? `${JSON.stringify(result, null, 2)}\n` : auditText(result));
  const failed = auditFails(result, { failOn: args['fail-on'], maxFindings: args['max-findings'] });
  if (failed) {
    cli.stderr(`csp-mock: audit failed: ${failed}\n`);
    cli.exitCode = 1;
  }
}

/** A saved journal's report; the rules load here, not with every command of the CLI. */
async function auditFile(file: string, user: string | undefined, options: AuditOptions): Promise<AuditReport> {
  const [{ auditJournal }, { readJournalFile }] = await Promise.all([
    import('../audit/audit.js'),
    import('../audit/journal-file.js'),
  ]);
  const entries = await readJournalFile(file);
  return auditJournal(user === undefined ? entries : entries.filter((e) => e.user === user), options);
}

export const auditCommand = (cli: CliContext): CommandModule<object, AuditArgs> => ({
  command: 'audit',
  describe:
    "report what a client did that a careful client does not (retries, resumes, revalidation, N+1, polling), from a running mock's journal or a saved one",
  builder: (y) =>
    withThresholds(
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
        .option('max-findings', { type: 'number', describe: 'exit 1 when there are more findings than this' }),
    )
      .check((a) => {
        const max = a['max-findings'];
        if (max !== undefined && !(Number.isInteger(max) && max >= 0))
          throw new Error(`--max-findings must be a whole number (0 or more), got ${max}`);
        auditSettings(thresholdsOf(a));
        return true;
      })
      .example('$0 audit', "the running mock's journal")
      .example('$0 audit --fail-on warning --json > audit.json', 'in CI: any finding fails the job')
      .example('$0 requests --json > run.jsonl && $0 audit --file run.jsonl', 'a saved journal') as never,
  handler: async (args) => {
    const options: AuditOptions = { ...thresholdsOf(args), rules: args.rule };
    if (args.file !== undefined) return report(cli, await auditFile(args.file, args.user, options), args);
    await withRemote(cli, args, async (mock) =>
      report(cli, await mock.audit({ ...options, filter: { user: args.user } }), args),
    );
  },
});
