import { isReplayHandler } from '../replay/replayer.js';
import type { ScenarioRuntime } from '../scenarios/scenario-runtime.js';
import type { InspectedExchange, InspectedRule, InspectedScenario } from '../http/wire-types.js';

export type { InspectedExchange, InspectedRule, InspectedScenario };

/** Exchanges listed for a replayed recording; the page says how many more there are. */
const MAX_EXCHANGES = 500;

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
    // The rule goes out as JSON; its copy is a plain object, read by field name on the page.
    faults: rules.map((r) => ({ label: r.label, rule: { ...r.rule }, matched: r.matched, applied: r.applied })),
    recording,
  };
}
