import type { AuditFinding, AuditReport, AuditSeverity } from './audit-types.js';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The report for a person: a summary line, then each finding with the requests that show it. */
export function auditText(report: AuditReport): string {
  const lines = [
    report.findings.length === 0
      ? `no findings in ${plural(report.audited, 'request')} (${plural(report.rules.length, 'rule')})`
      : `${plural(report.findings.length, 'finding')} (${plural(report.errors, 'error')}, ${plural(report.warnings, 'warning')}) in ${plural(report.audited, 'request')}`,
  ];
  for (const finding of report.findings) lines.push('', ...findingLines(finding));
  return `${lines.join('\n')}\n`;
}

function findingLines(finding: AuditFinding): string[] {
  return [
    `${finding.severity} ${finding.rule}: ${finding.message}`,
    ...finding.requests.map(
      (r) =>
        `  #${r.seq} ${r.time.slice(11, 23)} ${r.method} ${r.path} ${r.status ?? '-'}${r.outcome === 'answered' ? '' : ` (${r.outcome})`}`,
    ),
  ];
}

/** Whether the report passes the CI gate: no finding at or above `failOn`, and at most `maxFindings`. */
export function auditFails(
  report: AuditReport,
  gate: { failOn?: AuditSeverity | 'none'; maxFindings?: number },
): string | undefined {
  const failOn = gate.failOn ?? 'error';
  const counted = failOn === 'warning' ? report.findings.length : failOn === 'error' ? report.errors : 0;
  if (counted > 0) return `${plural(counted, failOn === 'warning' ? 'finding' : 'error')} at --fail-on ${failOn}`;
  if (gate.maxFindings !== undefined && report.findings.length > gate.maxFindings)
    return `${plural(report.findings.length, 'finding')}, more than --max-findings ${gate.maxFindings}`;
  return undefined;
}
