import type { ExploreFailure, ExploreReport } from './explore.js';
import { findingLines } from '../converge/findings.js';
import { stepText } from './schedule.js';

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const seedText = ({ seedEntries: { drawn, shrunk } }: ExploreFailure): string =>
  drawn === shrunk ? '' : ` and the seed from ${drawn} files and folders to ${shrunk}`;

/** The report for a person: the verdict, the shrunk schedule and its findings, the coverage map, the times. */
export function exploreText(
  report: ExploreReport,
  context: { client: string; bundleFile?: string; replay?: string },
): string {
  const lines: string[] = [];
  const { failure } = report;
  if (context.replay !== undefined) {
    lines.push(
      `explore --replay ${context.replay}: ${report.reproduced} of ${report.runs} run${report.runs === 1 ? '' : 's'} found the bundle's ${report.bundle?.finding.kind ?? ''}`.trimEnd(),
    );
  } else {
    const head = `explore: ${report.runs} run${report.runs === 1 ? '' : 's'} of ${report.steps} steps from seed ${report.seed}, client ${JSON.stringify(context.client)}`;
    lines.push(
      failure
        ? `${head}: found ${failure.kind} in run ${failure.run} (seed ${failure.seed})`
        : `${head}: nothing found`,
    );
  }
  if (failure) {
    if (context.replay === undefined)
      lines.push(
        failure.shrinkRuns > 0
          ? `shrunk from ${failure.steps.length} steps to ${failure.shrunk.length}${seedText(failure)} in ${failure.shrinkRuns} runs (${seconds(failure.shrinkMs)}):`
          : `the schedule (${failure.shrunk.length} steps):`,
      );
    else lines.push('the schedule:');
    failure.shrunk.forEach((step, i) =>
      lines.push(`  ${i + 1}. ${stepText(step)}${failure.notes[i] ? ` (did nothing: ${failure.notes[i]})` : ''}`),
    );
    lines.push('findings:', ...findingLines(failure.findings).map((l) => `  ${l}`));
    if (context.bundleFile)
      lines.push(
        `repro: ${context.bundleFile} (csp-mock explore --replay ${context.bundleFile} --client ... --dir ...)`,
      );
  }
  if (report.coverage.length) {
    lines.push('coverage (what the client met, how often, and what it did next):');
    const width = Math.max(...report.coverage.map((r) => r.shape.length));
    for (const row of report.coverage) {
      const then = Object.entries(row.then)
        .map(([what, n]) => `${what} ${n}`)
        .join(', ');
      lines.push(`  ${row.shape.padEnd(width)}  ${String(row.met).padStart(4)}  ${then}`);
    }
  }
  const { totalMs, clientMs } = report.timings;
  lines.push(
    `time: ${seconds(totalMs)} in all, ${seconds(clientMs)} in the client's passes, ${seconds(totalMs - clientMs)} explore's own`,
  );
  return `${lines.join('\n')}\n`;
}
