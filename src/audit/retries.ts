import type { JournalEntry } from '../http/journal.js';
import type { AuditFinding, AuditRule, AuditRuleId, AuditSettings } from './audit-types.js';
import {
  audited,
  duration,
  endedAt,
  arrivedAt,
  failed,
  failureWords,
  groupBy,
  requestKey,
  retryAfterMs,
} from './entry-facts.js';

/** How a retry broke the rules, or undefined when it waited long enough. */
function violation(failure: JournalEntry, retry: JournalEntry, settings: AuditSettings): AuditRuleId | undefined {
  // The journal's arrival times are whole milliseconds: allow one for the rounding.
  const waited = arrivedAt(retry) - endedAt(failure) + 1;
  const asked = retryAfterMs(failure);
  if (asked !== undefined) return waited < asked - settings.retryAfterToleranceMs ? 'retry-after-ignored' : undefined;
  return waited < settings.minBackoffMs ? 'retry-without-backoff' : undefined;
}

function message(rule: AuditRuleId, chain: readonly JournalEntry[], settings: AuditSettings): string {
  const [failure, retry] = chain as [JournalEntry, JournalEntry];
  const waited = duration(arrivedAt(retry) - endedAt(failure));
  const more = chain.length > 2 ? ` (${chain.length - 1} retries in a row, each too soon)` : '';
  const what = `${failure.method} ${failure.path}`;
  if (rule === 'retry-after-ignored')
    return `${what} was retried ${waited} after ${failureWords(failure)} whose Retry-After: ${failure.retryAfter} asked for ${duration(retryAfterMs(failure)!)}${more}: wait as long as the service asks`;
  return `${what} was retried ${waited} after ${failureWords(failure)}${more}, sooner than the ${duration(settings.minBackoffMs)} backoff floor: wait before retrying, longer each time, with jitter`;
}

/** Retries of a failed request, per resource: a finding per run of retries that came too soon. */
function retryFindings(entries: readonly JournalEntry[], settings: AuditSettings, wanted: AuditRuleId): AuditFinding[] {
  const findings: AuditFinding[] = [];
  const severity = wanted === 'retry-after-ignored' ? 'error' : 'warning';
  for (const group of groupBy(entries, (e) => (e.outcome === 'pending' ? undefined : requestKey(e)))) {
    let chain: JournalEntry[] = [];
    const close = (): void => {
      if (chain.length > 1)
        findings.push({
          rule: wanted,
          severity,
          message: message(wanted, chain, settings),
          requests: chain.map(audited),
        });
      chain = [];
    };
    for (let i = 1; i < group.length; i++) {
      const failure = group[i - 1]!;
      const retry = group[i]!;
      const broke = failed(failure) ? violation(failure, retry, settings) : undefined;
      if (broke !== wanted) {
        close();
        continue;
      }
      if (chain.length === 0) chain.push(failure);
      chain.push(retry);
    }
    close();
  }
  return findings;
}

/** A failed request sent again sooner than the backoff floor, when the answer named no wait. */
export const retryWithoutBackoff: AuditRule = (entries, settings) =>
  retryFindings(entries, settings, 'retry-without-backoff');

/** A failed request sent again before the wait its answer's Retry-After asked for. */
export const retryAfterIgnored: AuditRule = (entries, settings) =>
  retryFindings(entries, settings, 'retry-after-ignored');
