import type { JournalEntry } from '../http/journal.js';
import type { AuditFinding, AuditRule } from './audit-types.js';
import { audited, failed, failureWords, sent } from './entry-facts.js';

/** The journal says whether a request's change was committed (the ambiguous-commit faults set it). */
const committed = (e: JournalEntry): boolean => e.committed === true;

/** The same request again: same user, method, path and the headers that say what it carries and where to. */
function sameRequest(a: JournalEntry, b: JournalEntry): boolean {
  const mediaType = (e: JournalEntry): string | undefined =>
    sent(e, 'content-type')?.split(';')[0]?.trim().toLowerCase();
  return (
    a.user === b.user &&
    a.method === b.method &&
    a.path === b.path &&
    mediaType(a) === mediaType(b) &&
    sent(a, 'content-length') === sent(b, 'content-length') &&
    sent(a, 'content-location') === sent(b, 'content-location') &&
    sent(a, 'destination') === sent(b, 'destination')
  );
}

/**
 * A request that changes state (POST: create, upload, copy) was committed, the client saw it fail, and
 * sent it again without checking: a second copy, or a refusal it then has to explain.
 */
export const duplicateAfterAmbiguousCommit: AuditRule = (entries, settings) => {
  const methods = new Set(settings.nonIdempotentMethods.map((m) => m.toUpperCase()));
  const findings: AuditFinding[] = [];
  entries.forEach((first, i) => {
    if (!methods.has(first.method) || !committed(first) || !failed(first)) return;
    const repeat = entries.slice(i + 1).find((e) => sameRequest(first, e));
    if (!repeat) return;
    const answer = repeat.status ?? 'no answer';
    const outcome =
      repeat.status !== null && repeat.status < 300
        ? 'a duplicate was created'
        : `the service refused the repeat, so the client now holds an error for a change that succeeded`;
    findings.push({
      rule: 'duplicate-after-ambiguous-commit',
      severity: 'error',
      message: `${first.method} ${first.path} was committed, but the client saw ${failureWords(first)} and sent it again (#${repeat.seq}, ${answer}): ${outcome}; after an ambiguous failure, look (list the container, read the entity) before repeating`,
      requests: [audited(first), audited(repeat)],
    });
  });
  return findings;
};
