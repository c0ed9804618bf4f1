import type { JournalEntry } from '../http/journal.js';
import type { AuditFinding, AuditRule } from './audit-types.js';
import { audited, failed, sent } from './entry-facts.js';

/** A listing and the children it lists are read with: the container's own reads, not its members' bytes. */
interface Listing {
  /** Identifies the listed container for this user. */
  key: string;
  entry: JournalEntry;
}

const REST_LISTING = /^\/v2\/containers\/([^/]+)\/contents$/;
const REST_ENTITY = /^\/v2\/(?:files|containers)\/([^/]+)$/;

const trimSlash = (path: string): string => path.replace(/\/+$/, '') || '/';

function listingOf(e: JournalEntry): Listing | undefined {
  if (failed(e)) return undefined;
  const rest = e.method === 'GET' ? REST_LISTING.exec(e.path) : null;
  if (rest) return { key: `${e.user ?? ''} rest ${rest[1]}`, entry: e };
  if (e.method === 'PROPFIND' && sent(e, 'depth') === '1')
    return { key: `${e.user ?? ''} dav ${trimSlash(e.path)}`, entry: e };
  return undefined;
}

/** The listing key and the child id this request reads one by one, if it is such a read. */
function childReadOf(e: JournalEntry): { key: string; child: string } | undefined {
  if (failed(e)) return undefined;
  const rest = e.method === 'GET' ? REST_ENTITY.exec(e.path) : null;
  if (rest && e.parent !== undefined) return { key: `${e.user ?? ''} rest ${e.parent}`, child: rest[1]! };
  if (e.method === 'PROPFIND' && sent(e, 'depth') === '0') {
    const path = trimSlash(e.path);
    const parent = path.slice(0, path.lastIndexOf('/')) || '/';
    return { key: `${e.user ?? ''} dav ${parent}`, child: path };
  }
  return undefined;
}

/**
 * A listing, then one read per listed child (GET of each entity, or a Depth: 0 PROPFIND of each member)
 * before the container is listed again: N+1 requests where one listing with the children's details does.
 */
export const nPlusOneListing: AuditRule = (entries, settings) => {
  const findings: AuditFinding[] = [];
  /** The open window after each listing: its children read one by one, and those reads. */
  const open = new Map<string, { listing: JournalEntry; children: Set<string>; reads: JournalEntry[] }>();
  const close = (key: string): void => {
    const window = open.get(key);
    open.delete(key);
    if (!window || window.children.size < settings.nPlusOneChildren) return;
    const { listing } = window;
    const how =
      listing.method === 'GET' ? 'ask the listing for them (X-Cloud-Depth: 1)' : 'read them from the Depth: 1 PROPFIND';
    findings.push({
      rule: 'n-plus-one-listing',
      severity: 'warning',
      message: `after listing ${listing.path} (#${listing.seq}), the client read ${window.children.size} of its children one request each: ${how}`,
      requests: [listing, ...window.reads].map(audited),
    });
  };
  for (const e of entries) {
    const listing = listingOf(e);
    if (listing) {
      close(listing.key);
      open.set(listing.key, { listing: e, children: new Set(), reads: [] });
      continue;
    }
    const read = childReadOf(e);
    const window = read && open.get(read.key);
    if (!read || !window || window.children.has(read.child)) continue;
    window.children.add(read.child);
    window.reads.push(e);
  }
  for (const key of [...open.keys()]) close(key);
  return findings;
};
