import type { JournalEntry } from '../http/journal.js';
import { duplicateAfterAmbiguousCommit } from './ambiguous-commits.js';
import { auditSettings, type AuditOptions, type AuditReport, type AuditRule, type AuditRuleId } from './audit-types.js';
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
