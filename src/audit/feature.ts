import { requests } from '../admin/core-controls.js';
import type { Channel, Feature } from '../feature.js';
import type { JournalFilter } from '../http/journal.js';
import { auditJournal } from './audit.js';
import type { AuditOptions, AuditReport } from './audit-types.js';

/** The audit's call on every handle. */
export interface AuditControls {
  /**
   * Reads the journal (`filter` picks the requests, e.g. one user's) and reports what the client did that a
   * careful client does not: retries without backoff or against Retry-After, repeats after an ambiguous
   * commit, full re-uploads, ETags never revalidated, N+1 listings, polling too fast. See src/audit/README.md.
   */
  audit(options?: AuditOptions & { filter?: JournalFilter }): Promise<AuditReport>;
}

/** The audit runs where the handle is, over the journal the mock answers (in this process or over HTTP). */
export function auditControls(channel: Channel): AuditControls {
  return {
    audit: async (options = {}) => auditJournal((await channel.call(requests, options.filter ?? {})).requests, options),
  };
}

/** The client audit: no route and no state of its own, a call over the journal. */
export const auditFeature: Feature = { name: 'audit' };
