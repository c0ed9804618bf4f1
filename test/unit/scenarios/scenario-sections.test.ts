import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FEATURES, SCENARIO_SECTIONS } from '../../../src/features.js';
import { SCHEMA_FILE } from '../../../src/scenarios/catalog.js';
import { CORE_FIELDS, checkScenario } from '../../../src/scenarios/schema-check.js';

const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as {
  properties: Record<string, { $ref?: string }>;
  definitions: Record<string, { properties?: Record<string, unknown> }>;
};
const sectionFields = SCENARIO_SECTIONS.map((s) => s.field);

/** The schema of a section's field: a top-level property, or a property of the definition one refers to. */
function schemaOfField(field: string): unknown {
  const [top, ...rest] = field.split('.');
  let at: unknown = schema.properties[top!];
  for (const key of rest) {
    const ref = (at as { $ref?: string } | undefined)?.$ref?.replace('#/definitions/', '');
    at = ref === undefined ? undefined : schema.definitions[ref]?.properties?.[key];
  }
  return at;
}

describe('features own their parts of a scenario', () => {
  it('network shaping, generated accounts, the clock, the second device and the deviations declare their sections', () => {
    const owners = FEATURES.flatMap((f) => (f.scenario ?? []).map((s) => [f.name, s.field]));
    expect(owners).toEqual(
      expect.arrayContaining([
        ['network shaping', 'network'],
        ['generated accounts', 'seed.generate'],
        ['clock', 'clock'],
        ['second device', 'changes'],
        ['second device', 'randomEditor'],
        ['interface deviations', 'deviations'],
      ]),
    );
  });

  it.each(SCENARIO_SECTIONS.map((s) => [s.field, s] as const))(
    "the published schema holds the %s section's field and every definition it declares",
    (_field, section) => {
      expect(schemaOfField(section.field)).toBeDefined();
      for (const name of section.definitions) expect(schema.definitions[name], name).toBeDefined();
    },
  );

  it('no definition of the published schema is declared by two sections', () => {
    const declared = SCENARIO_SECTIONS.flatMap((s) => s.definitions);
    expect(declared.length).toBe(new Set(declared).size);
  });

  it("the published schema's fields are the loader's own and the features' sections, and nothing else", () => {
    const top = sectionFields.filter((f) => !f.includes('.'));
    const inSeed = sectionFields.filter((f) => f.startsWith('seed.')).map((f) => f.slice('seed.'.length));
    expect(Object.keys(schema.properties).sort()).toEqual([...CORE_FIELDS[''], ...top].sort());
    expect(Object.keys(schema.definitions['seed']!.properties!).sort()).toEqual(
      [...CORE_FIELDS.seed, ...inSeed].sort(),
    );
  });

  it('a section is known to the loader only through its feature: without it, its field is not a known field', () => {
    const network = { network: { slice: { bytes: 10, jitterBytes: 10, delayMs: 1 } } };
    const generate = { seed: { generate: { files: 1 } } };
    expect(() => checkScenario(network, 'x.json', { sections: [] })).toThrow('x.json: network: is not a known field');
    expect(() => checkScenario(generate, 'x.json', { sections: [] })).toThrow(
      'x.json: seed.generate: is not a known field',
    );
    expect(() => checkScenario(generate, 'x.json', { sections: SCENARIO_SECTIONS })).not.toThrow();
  });

  it("the loader checks a section by its feature's own rules", () => {
    const jitter = { network: { slice: { bytes: 10, jitterBytes: 10, delayMs: 1 } } };
    const both = { seed: { tree: [], generate: { files: 1 } } };
    expect(() => checkScenario(jitter, 'x.json', { sections: SCENARIO_SECTIONS })).toThrow(
      'x.json: network.slice.jitterBytes: must be smaller than bytes',
    );
    expect(() => checkScenario(both, 'x.json', { sections: SCENARIO_SECTIONS })).toThrow(
      'x.json: seed.generate: give tree or generate, not both',
    );
  });
});
