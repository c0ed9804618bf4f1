import type { JournalEntry } from '../../http/wire-types.js';

/** What the Outcome column says: replay's verdict when replaying, else how the request ended on the wire. */
export function outcomeOf(entry: JournalEntry): { label: string; tone: string } {
  // Not a client's request: a change another device made (or could not make).
  if (entry.device === 'second')
    return entry.committed
      ? { label: 'second device', tone: 'warn' }
      : { label: 'second device: refused', tone: 'bad' };
  // The change landed although the client heard nothing of it (an ambiguous commit).
  if (entry.committed && entry.outcome !== 'answered' && entry.outcome !== 'pending')
    return { label: `${entry.outcome} after commit`, tone: 'bad' };
  switch (entry.replay?.outcome) {
    case 'served':
      return { label: 'served', tone: 'good' };
    case 'missed':
      return { label: 'missed', tone: 'bad' };
    case 'emulated':
      return { label: 'fell back', tone: 'warn' };
    case 'proxied':
      return { label: 'fell back (proxied)', tone: 'warn' };
    default: {
      const tone = entry.outcome === 'answered' ? 'plain' : entry.outcome === 'pending' ? 'muted' : 'bad';
      return { label: entry.outcome, tone };
    }
  }
}

export function statusTone(status: number | null): string {
  if (status === null) return 'muted';
  return status >= 500 ? 'bad' : status >= 400 ? 'warn' : status >= 300 ? 'info' : 'good';
}

export function queryText(entry: JournalEntry): string {
  const pairs = Object.entries(entry.query).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => [k, x]));
  return pairs.length ? `?${new URLSearchParams(pairs).toString()}` : '';
}
