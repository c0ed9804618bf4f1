import type { JournalEntry } from '../http/journal.js';
import { duplicateAfterAmbiguousCommit } from './ambiguous-commits.js';
import {
  AUDIT_RULES,
  DEFAULT_AUDIT_SETTINGS,
  type AuditOptions,
  type AuditReport,
  type AuditRule,
  type AuditRuleId,
  type AuditSettings,
} from './audit-types.js';
import { nPlusOneListing } from './listings.js';
import { pollingTooFast } from './polling.js';
import { fullReupload } from './resumes.js';
import { retryAfterIgnored, retryWithoutBackoff } from './retries.js';
import { etagNotRevalidated } from './revalidation.js';

const RULES: Record<AuditRuleId, AuditRule> = {
  'retry-without-backoff': retryWithoutBackoff,
  'retry-after-ignored': retryAfterIgnored,
  'duplicate-after-ambiguous-commit': duplicateAfterAmbiguousCommit,
  'full-reupload': fullReupload,
  'etag-not-revalidated': etagNotRevalidated,
  'n-plus-one-listing': nPlusOneListing,
  'polling-too-fast': pollingTooFast,
};

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

/**
 * Reads a request journal (any order; entries still running are skipped where they would mislead) and
 * reports what the client did that a careful client does not, each finding with the requests that show it.
 */
export function auditJournal(entries: readonly JournalEntry[], options: AuditOptions = {}): AuditReport {
  const settings = auditSettings(options);
  // The second device's changes are the test's doing, not the client's behaviour.
  const ordered = entries.filter((e) => e.device !== 'second').sort((a, b) => a.seq - b.seq);
  const findings = settings.rules.flatMap((rule) => RULES[rule](ordered, settings));
  findings.sort((a, b) => (a.requests[0]?.seq ?? 0) - (b.requests[0]?.seq ?? 0));
  const errors = findings.filter((f) => f.severity === 'error').length;
  return { audited: ordered.length, rules: [...settings.rules], findings, errors, warnings: findings.length - errors };
}
