import type { LoadResult } from './load.js';

export interface Row {
  scenario: string;
  baseline: LoadResult;
  mock: LoadResult;
}

const pad = (s: string, n: number): string => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const lpad = (s: string, n: number): string => (s.length >= n ? s : ' '.repeat(n - s.length) + s);

/** The table: per scenario, requests per second and latencies of both, and mock/baseline ratios. */
export function formatReport(rows: Row[], requests: number, concurrency: number): string {
  const head = ['scenario', 'baseline req/s', 'mock req/s', 'baseline p50 ms', 'mock p50 ms', 'mock p99 ms', 'ratio time mock/baseline'];
  const widths = [24, 15, 11, 16, 12, 12, 25];
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? pad(c, widths[i]!) : lpad(c, widths[i]!))).join(' ');
  const out = [
    `csp-mock benchmark: ${requests} requests per scenario, ${concurrency} concurrent, keep-alive over loopback (node ${process.version})`,
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
  ];
  for (const { scenario, baseline, mock } of rows) {
    out.push(
      line([
        scenario,
        baseline.perSecond.toFixed(0),
        mock.perSecond.toFixed(0),
        baseline.p50Ms.toFixed(2),
        mock.p50Ms.toFixed(2),
        mock.p99Ms.toFixed(2),
        `${(mock.meanMs / baseline.meanMs).toFixed(2)}x`,
      ]),
    );
  }
  out.push('ratio = mean time per request of the mock divided by that of bare express serving canned bodies of the same size.');
  return out.join('\n');
}
