import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCENARIO_SECTIONS } from '../../../src/features.js';
import { BUILTIN_DIR } from '../../../src/scenarios/catalog.js';
import { checkScenario } from '../../../src/scenarios/schema-check.js';

// Loading a built-in scenario skips the JSON Schema (start-up cost); this holds every one of them to it.
describe('built-in scenario files', () => {
  const files = readdirSync(BUILTIN_DIR).filter((f) => f.endsWith('.json') && f !== 'scenario.schema.json');

  it('are all there', () => {
    expect(files).toContain('default.json');
  });

  it.each(files)('%s passes the full schema check', (file) => {
    const path = join(BUILTIN_DIR, file);
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    expect(() => checkScenario(parsed, path, { sections: SCENARIO_SECTIONS })).not.toThrow();
  });

  it('the schema check still refuses a bad shape when not told the file is built in', () => {
    expect(() => checkScenario({ faults: 'none' }, 'x.json', { sections: SCENARIO_SECTIONS })).toThrow(/faults/);
  });
});
