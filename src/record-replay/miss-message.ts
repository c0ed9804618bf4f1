import type { Exchange } from './format.js';
import { differences, distance, type RequestKey } from './request-key.js';

export interface IndexedExchange {
  exchange: Exchange;
  key: RequestKey;
}

/** The text of a replay miss: the request, then the nearest recorded requests and what differed. */
export function missMessage(method: string, path: string, client: string, key: RequestKey, recorded: readonly IndexedExchange[], shown = 3): string {
  const lines = [`csp-mock replay: no recorded exchange matches ${method} ${path} (client ${client}).`];
  if (recorded.length === 0) {
    lines.push('The recording has no exchanges.');
    return `${lines.join('\n')}\n`;
  }
  const nearest = [...recorded]
    .map((r) => ({ r, d: distance(key, r.key) }))
    .sort((a, b) => a.d - b.d || a.r.exchange.id - b.r.exchange.id)
    .filter((x, i, all) => all.findIndex((y) => y.r.key === x.r.key || sameKey(y.r.key, x.r.key)) === i)
    .slice(0, shown);
  lines.push(`Nearest recorded requests (of ${recorded.length}):`);
  for (const { r } of nearest) {
    const e = r.exchange;
    const q = e.request.query.length ? `?${new URLSearchParams(e.request.query).toString()}` : '';
    lines.push(`  exchange ${e.id}: ${e.request.method} ${e.request.path}${q} -> ${e.response.status}`);
    for (const d of differences(key, r.key)) lines.push(`    differs: ${d}`);
  }
  lines.push('Replay matches method, path, sorted query, content type, body (multipart boundaries ignored) and the match headers.');
  return `${lines.join('\n')}\n`;
}

function sameKey(a: RequestKey, b: RequestKey): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
