import type { LoadResult } from './load.js';
import type { Scenario } from './scenarios.js';
import type { ColdStart, Lifecycle } from './startup.js';

export interface ThroughputRow {
  scenario: Scenario;
  baselineName: string;
  /** Best round of each. */
  baseline: LoadResult;
  mock: LoadResult;
}

export interface BenchReport {
  machine: { node: string; cpus: number; cpuModel: string; loadAverage: number[] };
  settings: { seconds: number; rounds: number; generator: string };
  rows: ThroughputRow[];
  /** One upload per size; each grows RSS by at most goalMiB, and they differ by at most spreadMiB. */
  rss: { uploads: { uploadMiB: number; growthMiB: number }[]; goalMiB: number; spreadMiB: number };
  coldStart: ColdStart;
  lifecycle: Lifecycle;
}

const pad = (s: string, n: number): string => s.padEnd(n);
const lpad = (s: string, n: number): string => s.padStart(n);
const mark = (met: boolean): string => (met ? 'met' : 'NOT met');
const WIDTHS = [27, 20, 12, 12, 7, 9, 7];
const line = (cells: string[]): string =>
  cells.map((c, i) => (i < 2 ? pad(c, WIDTHS[i]!) : lpad(c, WIDTHS[i]!))).join(' ');
const HEADER = [
  line(['target', 'baseline', 'baseline', 'mock', 'ratio', 'goal', '']),
  line(WIDTHS.map((w) => '-'.repeat(w))),
];
const machineLine = (m: BenchReport['machine']): string =>
  `csp-mock benchmark: node ${m.node}, ${m.cpus} x ${m.cpuModel}, load average ${m.loadAverage.map((l) => l.toFixed(2)).join(' ')}`;

/** The start-up rows: the CLI's cold start, reset() and startMock()+close(). */
function startupLines(coldStart: ColdStart, lifecycle: Lifecycle): string[] {
  return [
    line([
      'CLI cold start (`csp-mock scenarios`)',
      'bare `node -e 0` spawn',
      `${coldStart.bareMs.toFixed(0)} ms`,
      `${coldStart.cliMs.toFixed(0)} ms`,
      `${coldStart.ratio.toFixed(2)}x`,
      '<= 3x',
      mark(coldStart.ratio <= 3),
    ]),
    line([
      '`csp-mock serve` to its ready line',
      'bare node:http server',
      `${coldStart.bareServerMs.toFixed(0)} ms`,
      `${coldStart.serveMs.toFixed(0)} ms`,
      `${coldStart.serveRatio.toFixed(2)}x`,
      '<= 2.5x',
      mark(coldStart.serveRatio <= 2.5),
    ]),
    line([
      'reset() (demo seed)',
      '-',
      '-',
      `${lifecycle.resetMs.toFixed(2)} ms`,
      '-',
      '<= 2 ms',
      mark(lifecycle.resetMs <= 2),
    ]),
    line([
      'startMock()+close()',
      '-',
      '-',
      `${lifecycle.startCloseMs.toFixed(2)} ms`,
      '-',
      '<= 5 ms',
      mark(lifecycle.startCloseMs <= 5),
    ]),
  ];
}

/** The table: every target, the measured figure, its baseline, the ratio and the goal. */
export function formatReport(r: BenchReport): string {
  const out = [
    machineLine(r.machine),
    `${r.settings.generator}, ${r.settings.seconds} s per measurement, best of ${r.settings.rounds} interleaved rounds, loopback`,
    ...HEADER,
  ];
  for (const { scenario, baselineName, baseline, mock } of r.rows) {
    const ratio = mock.perSecond / baseline.perSecond;
    out.push(
      line([
        `${scenario.name} (c${scenario.connections})`,
        baselineName,
        `${baseline.perSecond.toFixed(0)} req/s`,
        `${mock.perSecond.toFixed(0)} req/s`,
        `${ratio.toFixed(2)}x`,
        `>= ${scenario.goal.toFixed(1)}x`,
        mark(ratio >= scenario.goal),
      ]),
    );
  }
  const growths = r.rss.uploads.map((u) => u.growthMiB);
  const spread = Math.max(...growths) - Math.min(...growths);
  for (const { uploadMiB, growthMiB } of r.rss.uploads) {
    out.push(
      line([
        `PUT ${uploadMiB} MiB, RSS growth`,
        '-',
        '-',
        `${growthMiB.toFixed(1)} MiB`,
        '-',
        `<= ${r.rss.goalMiB} MiB`,
        mark(growthMiB <= r.rss.goalMiB),
      ]),
    );
  }
  out.push(
    line([
      'RSS growth spread',
      '-',
      '-',
      `${spread.toFixed(1)} MiB`,
      '-',
      `<= ${r.rss.spreadMiB} MiB`,
      mark(spread <= r.rss.spreadMiB),
    ]),
    ...startupLines(r.coldStart, r.lifecycle),
  );
  out.push(
    'ratio = mock/baseline requests per second (higher is better); cold start = mock/bare time (lower is better).',
  );
  return out.join('\n');
}

/** `npm run bench -- startup`: the start-up rows alone. */
export function formatStartupReport(
  machine: BenchReport['machine'],
  coldStart: ColdStart,
  lifecycle: Lifecycle,
): string {
  return [machineLine(machine), ...HEADER, ...startupLines(coldStart, lifecycle)].join('\n');
}

/** The same report as JSON: figures only, ratios computed. */
export function reportJson(r: BenchReport): unknown {
  return {
    machine: r.machine,
    settings: r.settings,
    throughput: Object.fromEntries(
      r.rows.map(({ scenario, baselineName, baseline, mock }) => [
        scenario.id,
        {
          name: scenario.name,
          connections: scenario.connections,
          baseline: baselineName,
          baselinePerSecond: baseline.perSecond,
          mockPerSecond: mock.perSecond,
          ratio: mock.perSecond / baseline.perSecond,
          goal: scenario.goal,
        },
      ]),
    ),
    rss: r.rss,
    coldStart: r.coldStart,
    lifecycle: r.lifecycle,
  };
}
