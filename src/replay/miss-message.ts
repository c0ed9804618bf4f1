import { REDACTED, redactNameValuePairs } from '../http/redaction.js';
import type { Exchange } from '../recording/format.js';
import { differences, distance, keyString, type RequestKey } from '../recording/request-key.js';

export interface IndexedExchange {
  exchange: Exchange;
  key: RequestKey;
}

/** The text of a replay miss: the request, then the nearest recorded requests and what differed. */
/** A line of the message is cut here: the message goes to the client and into the journal for every miss. */
const MAX_LINE = 300;
const cut = (line: string): string =>
  line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}… (${line.length} characters)` : line;

export function missMessage(
  method: string,
  path: string,
  client: string,
  key: RequestKey,
  recorded: readonly IndexedExchange[],
  redacted: readonly string[] = [],
  shown = 3,
): string {
  // A query as the message shows it: secret-named values go, even from a hand-made recording that kept them.
  const query = (text: string): string => redactNameValuePairs(text, redacted, REDACTED);
  const lines = [`csp-mock replay: no recorded exchange matches ${method} ${path} (client ${client}).`];
  if (recorded.length === 0) {
    lines.push('The recording has no exchanges.');
    return `${lines.join('\n')}\n`;
  }
  const nearest = nearestOf(key, recorded, shown);
  lines.push(`Nearest recorded requests (of ${recorded.length}):`);
  for (const { r } of nearest) {
    const e = r.exchange;
    const q = e.request.query.length ? `?${query(new URLSearchParams(e.request.query).toString())}` : '';
    lines.push(`  exchange ${e.id}: ${e.request.method} ${e.request.path}${q} -> ${e.response.status}`);
    for (const d of differences({ ...key, query: query(key.query) }, { ...r.key, query: query(r.key.query) }))
      lines.push(`    differs: ${d}`);
  }
  lines.push(
    'Replay matches method, path, sorted query, content type, body (multipart boundaries ignored) and the match headers.',
  );
  return `${lines.map(cut).join('\n')}\n`;
}

interface Ranked {
  r: IndexedExchange;
  d: number;
  k: string;
}

/**
 * The `shown` nearest recorded requests, one per distinct request, in one pass over the recording
 * (a miss against thousands of exchanges costs a few milliseconds, not a quadratic sort and filter).
 */
function nearestOf(key: RequestKey, recorded: readonly IndexedExchange[], shown: number): Ranked[] {
  const best: Ranked[] = [];
  const before = (a: { d: number; r: IndexedExchange }, b: { d: number; r: IndexedExchange }): boolean =>
    a.d < b.d || (a.d === b.d && a.r.exchange.id < b.r.exchange.id);
  for (const r of recorded) {
    const d = distance(key, r.key);
    const worst = best[best.length - 1];
    if (best.length === shown && worst && !before({ d, r }, worst)) continue;
    const k = keyString(r.key);
    const twin = best.findIndex((b) => b.k === k);
    if (twin >= 0) {
      if (!before({ d, r }, best[twin]!)) continue;
      best.splice(twin, 1);
    }
    const at = best.findIndex((b) => before({ d, r }, b));
    best.splice(at < 0 ? best.length : at, 0, { r, d, k });
    if (best.length > shown) best.pop();
  }
  return best;
}
