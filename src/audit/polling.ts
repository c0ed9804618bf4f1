import type { JournalEntry } from '../http/journal.js';
import type { AuditFinding, AuditRule } from './audit-types.js';
import { arrivedAt, audited, duration, failed, groupBy, requestKey } from './entry-facts.js';

const READS = new Set(['GET', 'HEAD', 'PROPFIND']);

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * The same read repeated, answered each time, faster than the stated rate: a run of at least `minPolls`
 * reads, each sooner than `minPollIntervalMs` after the one before. Failures end a run (they are retries).
 */
export const pollingTooFast: AuditRule = (entries, settings) => {
  const findings: AuditFinding[] = [];
  const reads = groupBy(entries, (e) => (READS.has(e.method) && e.outcome !== 'pending' ? requestKey(e) : undefined));
  for (const group of reads) {
    let run: JournalEntry[] = [];
    const close = (): void => {
      if (run.length >= settings.minPolls) {
        const gaps = run.slice(1).map((e, i) => arrivedAt(e) - arrivedAt(run[i]!));
        findings.push({
          rule: 'polling-too-fast',
          severity: 'warning',
          message: `${run[0]!.method} ${run[0]!.path} was read ${run.length} times in a row about every ${duration(median(gaps))}, faster than once every ${duration(settings.minPollIntervalMs)}: poll at the stated rate, or follow the change feed`,
          requests: run.map(audited),
        });
      }
      run = [];
    };
    for (const e of group) {
      if (failed(e)) {
        close();
        continue;
      }
      const previous = run.at(-1);
      if (previous && arrivedAt(e) - arrivedAt(previous) >= settings.minPollIntervalMs) close();
      run.push(e);
    }
    close();
  }
  return findings;
};
