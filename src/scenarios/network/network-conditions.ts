import { bytesPerSecond } from './byte-rate.js';
import { ScenarioError } from '../scenario-error.js';
import { seededRandom } from '../seeded-random.js';
import type { FaultRule, Hang, NetworkConditions, Slice, StallUpload } from '../types.js';

/** A slice with its jitter source (seeded once per rule or per scenario, so runs repeat). */
export interface DrawnSlice {
  bytes: number;
  jitterBytes: number;
  delayMs: number;
  draw: () => number;
}

/** Everything that shapes one request's bytes on the wire: the scenario's `network` with the rule's own on top. */
export interface RequestConditions {
  /** For the journal and the log, e.g. ["bandwidth", "slice"]. */
  names: string[];
  downRate: number | undefined;
  upRate: number | undefined;
  slice: DrawnSlice | undefined;
  hang: Hang | undefined;
  slowCloseMs: number | undefined;
  stallUpload: StallUpload | undefined;
}

/** The jitter source of a slice, fresh when a scenario is armed. */
export function sliceDraw(slice: Slice | undefined): (() => number) | undefined {
  return slice ? seededRandom(slice.seed ?? 1) : undefined;
}

/** The conditions for a request, or undefined when none apply (the request is not touched at all). */
export function conditionsFor(
  network: NetworkConditions | undefined,
  networkDraw: (() => number) | undefined,
  rule: FaultRule | undefined,
  ruleDraw: (() => number) | undefined,
): RequestConditions | undefined {
  const bandwidth = { ...network?.bandwidth, ...rule?.bandwidth };
  const slice = rule?.slice ?? network?.slice;
  const draw = rule?.slice ? ruleDraw : networkDraw;
  const slowClose = rule?.slowClose ?? network?.slowClose;
  const conditions: RequestConditions = {
    names: [],
    downRate: bandwidth.down === undefined ? undefined : bytesPerSecond(bandwidth.down),
    upRate: bandwidth.up === undefined ? undefined : bytesPerSecond(bandwidth.up),
    slice:
      slice && draw
        ? { bytes: slice.bytes, jitterBytes: slice.jitterBytes ?? 0, delayMs: slice.delayMs, draw }
        : undefined,
    hang: rule?.hang,
    slowCloseMs: slowClose?.ms,
    stallUpload: rule?.stallUpload,
  };
  const names = conditions.names;
  if (conditions.downRate !== undefined || conditions.upRate !== undefined) names.push('bandwidth');
  if (conditions.slice) names.push('slice');
  if (conditions.stallUpload) names.push('stallUpload');
  if (conditions.hang) names.push(conditions.hang.of === 'request' ? 'hang(request)' : 'hang');
  if (conditions.slowCloseMs !== undefined) names.push('slowClose');
  return names.length > 0 ? conditions : undefined;
}

/** Rates that parse, and jitter smaller than the slice. */
export function checkConditions(conditions: NetworkConditions, field: string, source: string): void {
  for (const way of ['down', 'up'] as const) {
    const rate = conditions.bandwidth?.[way];
    if (rate !== undefined && bytesPerSecond(rate) === undefined) {
      throw new ScenarioError(
        source,
        `${field}.bandwidth.${way}`,
        `"${rate}" is not a rate: a whole number of bytes per second from 1, or a number above 0 with a unit ("256 KiB/s")`,
      );
    }
  }
  const slice = conditions.slice;
  if (slice?.jitterBytes !== undefined && slice.jitterBytes >= slice.bytes) {
    throw new ScenarioError(source, `${field}.slice.jitterBytes`, 'must be smaller than bytes');
  }
}
