import { isReplayHandler } from '../replay/replayer.js';
import type { ScenarioRuntime } from '../scenarios/scenario-runtime.js';
import type { FaultRule, Latency } from '../scenarios/types.js';

/** Exchanges listed for a replayed recording; the page says how many more there are. */
const MAX_EXCHANGES = 500;

export interface InspectedRule {
  label: string;
  /** The rule as the scenario declares it. */
  rule: FaultRule;
  /** Requests it matched. */
  matched: number;
  /** Requests it fired on. */
  applied: number;
}

export interface InspectedExchange {
  id: number;
  client: string | null;
  method: string;
  path: string;
  status: number;
  /** How often replay has served it since the switch or the last reset. */
  served: number;
}

export interface InspectedScenario {
  name: string;
  description: string;
  source: string;
  latency: Latency | null;
  seeded: boolean;
  faults: InspectedRule[];
  recording: { name: string; exchanges: InspectedExchange[]; more: number } | null;
}

/** The active scenario with its fault counters and replay progress, read-only. */
export function inspectScenario(runtime: ScenarioRuntime): InspectedScenario {
  const scenario = runtime.scenario;
  const { rules, replay } = runtime.active;
  let recording: InspectedScenario['recording'] = null;
  if (scenario.recording && isReplayHandler(replay)) {
    const served = replay.servedCounts();
    const all = replay.recording.exchanges;
    recording = {
      name: scenario.recording,
      exchanges: all.slice(0, MAX_EXCHANGES).map((e) => ({
        id: e.id,
        client: e.session ? `session ${e.session}` : (e.user ?? null),
        method: e.request.method,
        path: e.request.path + (e.request.query.length ? `?${new URLSearchParams(e.request.query).toString()}` : ''),
        status: e.response.status,
        served: served.get(e.id) ?? 0,
      })),
      more: Math.max(0, all.length - MAX_EXCHANGES),
    };
  }
  return {
    name: scenario.name,
    description: scenario.description,
    source: scenario.source,
    latency: scenario.latency ?? null,
    seeded: !!scenario.seed,
    faults: rules.map((r) => ({ label: r.label, rule: r.rule, matched: r.matched, applied: r.applied })),
    recording,
  };
}
