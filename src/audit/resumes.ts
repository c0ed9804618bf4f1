import type { JournalEntry } from '../http/journal.js';
import type { AuditFinding, AuditRule } from './audit-types.js';
import { audited, failed, failureWords, groupBy, sent } from './entry-facts.js';

/** The first byte a ranged write starts at (`Content-Range: bytes a-b/total`), 0 for a whole-body write. */
function offsetOf(e: JournalEntry): number {
  const match = /^bytes\s+(\d+)-/i.exec(sent(e, 'content-range') ?? '');
  return match ? Number(match[1]) : 0;
}

/** How many body bytes the write carried: Content-Length, else what the server read. */
function lengthOf(e: JournalEntry): number {
  const declared = Number(sent(e, 'content-length'));
  if (Number.isInteger(declared) && declared > 0) return declared;
  return e.network?.bytesIn ?? e.requestBody?.bytes ?? 0;
}

const committed = (e: JournalEntry): boolean => e.committed === true;

/**
 * Per resource, the client's block writes (PUT with Content-Range): after some blocks were stored and a
 * later one failed, the client started over at byte 0 instead of resuming where the stored bytes end.
 */
export const fullReupload: AuditRule = (entries) => {
  const findings: AuditFinding[] = [];
  const writes = groupBy(entries, (e) =>
    e.method === 'PUT' && e.outcome !== 'pending' ? `${e.user ?? ''} ${e.path}` : undefined,
  );
  for (const group of writes) {
    // The bytes the current upload has stored so far (from its first byte), and the writes that stored them.
    let stored = 0;
    let upload: JournalEntry[] = [];
    let lastFailure: JournalEntry | undefined;
    for (const write of group) {
      const offset = offsetOf(write);
      if (lastFailure && stored > 0 && offset === 0) {
        findings.push({
          rule: 'full-reupload',
          severity: 'warning',
          message: `${write.method} ${write.path} started over at byte 0 after ${failureWords(lastFailure)}, though bytes 0-${stored - 1} were stored: resume with Content-Range: bytes ${stored}-...`,
          requests: [...upload, lastFailure, write].map(audited),
        });
      }
      if (offset === 0) {
        stored = 0;
        upload = [];
      }
      lastFailure = failed(write) ? write : undefined;
      if ((!failed(write) || committed(write)) && offset <= stored && sent(write, 'content-range') !== undefined) {
        stored = Math.max(stored, offset + lengthOf(write));
        upload.push(write);
      }
    }
  }
  return findings;
};
