import type { ClockSettings } from '../clock/mock-clock.js';
import type { TenantView } from '../http/wire-types.js';
import { isScenarioPath } from '../scenarios/catalog.js';
import type { ScenarioDefinition } from '../scenarios/types.js';

/** What a tenant is made with (the rest it takes from the server it lives on: its users, seed, scenario, ...). */
export interface TenantOptions {
  /** A name the server knows, a path to a scenario file of yours (read here, sent inline), or an inline scenario. */
  scenario?: string | ScenarioDefinition;
  seed?: 'demo' | 'empty';
  /** Login name to password. */
  users?: Record<string, string>;
  clock?: ClockSettings;
  strict?: boolean;
  /** Requests its journal keeps (at most 10,000). */
  journalSize?: number;
  /** Bytes of each body its journal keeps (at most 65,536). */
  journalBodies?: number;
}

export type { TenantView };

/** The body of POST /__admin/tenants: a scenario path of the caller's is read here and sent inline. */
export async function tenantBody(
  name: string,
  options: TenantOptions,
  baseDir: string,
): Promise<Record<string, unknown>> {
  const { scenario } = options;
  if (typeof scenario !== 'string' || !isScenarioPath(scenario)) return { name, ...options };
  const { scenarioDocument } = await import('./scenario-document.js');
  return { name, ...options, scenario: await scenarioDocument(scenario, baseDir) };
}
