import type { AuditFinding, AuditRule } from './audit-types.js';
import { audited, groupBy, requestKey } from './entry-facts.js';

const conditional = (headers: Record<string, string>): boolean =>
  headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined;

/** The same entity read again and again, its answers carrying an ETag, and never once asked for conditionally. */
export const etagNotRevalidated: AuditRule = (entries, settings) => {
  const findings: AuditFinding[] = [];
  const reads = groupBy(entries, (e) =>
    e.method === 'GET' && (e.etag !== undefined || e.status === 304) ? requestKey(e) : undefined,
  );
  for (const group of reads) {
    if (group.some((e) => conditional(e.headers))) continue;
    const full = group.filter((e) => e.status === 200 && e.etag !== undefined);
    if (full.length < settings.revalidateAfter) continue;
    const first = full[0]!;
    const unchanged = full.every((e) => e.etag === first.etag) ? `, the same ETag ${first.etag} each time` : '';
    findings.push({
      rule: 'etag-not-revalidated',
      severity: 'warning',
      message: `${first.method} ${first.path} was read ${full.length} times in full${unchanged}, never with If-None-Match: send the ETag back and take the 304`,
      requests: full.map(audited),
    });
  }
  return findings;
};
