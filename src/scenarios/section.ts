import type { ScenarioDefinition } from './types.js';

/**
 * A part of a scenario that a feature owns (network shaping's `network`, generated accounts' `seed.generate`):
 * its piece of the published schema, the rules between its fields that the schema cannot say, and what an error
 * of its runtime means. The loader is given the sections of a mock's features and knows of no other: a
 * section it is not given is not a known field.
 */
export interface ScenarioSection {
  /** Where it sits: a field of a scenario, or of its seed ("seed.generate"). */
  readonly field: string;
  /** Its piece of scenarios/scenario.schema.json: the definitions it declares there, besides its field. */
  readonly definitions: readonly string[];
  /** Throws ScenarioError naming the field; `value` passed the schema. None: the schema says it all. */
  check?(value: unknown, context: SectionContext): void;
  /** A top-level field's value under `extends`, from the parent's and its own; none: its own, else the parent's. */
  merge?(parent: unknown, own: unknown): unknown;
  /** The field (below the section's) and the problem of an error its runtime threw, when it is the section's. */
  problemOf?(err: unknown): { field: string; problem: string } | undefined;
}

export interface SectionContext {
  source: string;
  scenario: ScenarioDefinition;
  /** Sent over HTTP (the admin API), not named by the user's own code or command line. */
  overHttp: boolean;
}

export type ScenarioSections = readonly ScenarioSection[];

/** The section's value in a scenario, if it has one. */
export function sectionValue(scenario: unknown, field: string): unknown {
  let value = scenario;
  for (const key of field.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
