import type { JournalEntry } from '../http/journal.js';

export type AuditSeverity = 'warning' | 'error';

/** The rules, by id (the README's "The rules" says why each matters). */
export const AUDIT_RULES = [
  'retry-without-backoff',
  'retry-after-ignored',
  'duplicate-after-ambiguous-commit',
  'full-reupload',
  'etag-not-revalidated',
  'n-plus-one-listing',
  'polling-too-fast',
] as const;

export type AuditRuleId = (typeof AUDIT_RULES)[number];

/** Thresholds and the rules to run; every field has a default. */
export interface AuditOptions {
  /** Only these rules (default: all). */
  rules?: readonly AuditRuleId[];
  /** retry-without-backoff: the least wait between a failed answer and its retry. Default 500 ms. */
  minBackoffMs?: number;
  /** retry-after-ignored: how much earlier than Retry-After asked a retry may come (timer slack). Default 10 ms. */
  retryAfterToleranceMs?: number;
  /** polling-too-fast: the least interval between two reads of the same resource. Default 1000 ms. */
  minPollIntervalMs?: number;
  /** polling-too-fast: how many reads in a row, each sooner than minPollIntervalMs, make a finding. Default 5. */
  minPolls?: number;
  /** etag-not-revalidated: how many plain GETs of one entity (answered with an ETag) make a finding. Default 3. */
  revalidateAfter?: number;
  /** n-plus-one-listing: how many children read one by one after their listing make a finding. Default 5. */
  nPlusOneChildren?: number;
  /** duplicate-after-ambiguous-commit: the methods whose repeat changes the state again. Default POST, PATCH, LOCK. */
  nonIdempotentMethods?: readonly string[];
}

/** Every threshold filled in. */
export type AuditSettings = Required<Omit<AuditOptions, 'rules'>> & { rules: readonly AuditRuleId[] };

export const DEFAULT_AUDIT_SETTINGS: AuditSettings = {
  rules: AUDIT_RULES,
  minBackoffMs: 500,
  retryAfterToleranceMs: 10,
  minPollIntervalMs: 1000,
  minPolls: 5,
  revalidateAfter: 3,
  nPlusOneChildren: 5,
  nonIdempotentMethods: ['POST', 'PATCH', 'LOCK'],
};

/** One offending request, as a finding names it. */
export type AuditedRequest = Pick<JournalEntry, (typeof AUDITED_FIELDS)[number]>;
export const AUDITED_FIELDS = ['seq', 'time', 'method', 'path', 'status', 'outcome', 'user'] as const;

export interface AuditFinding {
  rule: AuditRuleId;
  severity: AuditSeverity;
  /** One sentence: what the client did, and what it should have done. */
  message: string;
  /** The requests that show it, oldest first. */
  requests: AuditedRequest[];
}

export interface AuditReport {
  /** How many journal entries were read. */
  audited: number;
  /** The rules that ran. */
  rules: AuditRuleId[];
  findings: AuditFinding[];
  errors: number;
  warnings: number;
}

/** One rule: reads the journal (oldest first) and reports what it finds. */
export type AuditRule = (entries: readonly JournalEntry[], settings: AuditSettings) => AuditFinding[];

const NUMBERS = [
  'minBackoffMs',
  'retryAfterToleranceMs',
  'minPollIntervalMs',
  'minPolls',
  'revalidateAfter',
  'nPlusOneChildren',
] as const;

/** The options with their defaults, checked: a threshold that is not a number says which it is. */
export function auditSettings(options: AuditOptions = {}): AuditSettings {
  const settings: AuditSettings = { ...DEFAULT_AUDIT_SETTINGS };
  for (const name of NUMBERS) {
    const value = options[name];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw new RangeError(`audit option ${name} must be a number of 0 or more, got ${JSON.stringify(value)}`);
    settings[name] = value;
  }
  if (options.rules !== undefined) {
    const unknown = options.rules.filter((r) => !(AUDIT_RULES as readonly string[]).includes(r));
    if (unknown.length)
      throw new RangeError(
        `unknown audit rule ${unknown.map((r) => `"${r}"`).join(', ')} (rules: ${AUDIT_RULES.join(', ')})`,
      );
    settings.rules = [...options.rules];
  }
  if (options.nonIdempotentMethods !== undefined) settings.nonIdempotentMethods = [...options.nonIdempotentMethods];
  return settings;
}
