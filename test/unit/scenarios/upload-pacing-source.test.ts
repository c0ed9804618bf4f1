import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCENARIOS = fileURLToPath(new URL('../../../src/scenarios', import.meta.url));

describe('upload pacing uses documented stream calls only', () => {
  it("no scenario module patches a request's push or _read, or emits a socket's pause/resume events itself", () => {
    const found: string[] = [];
    for (const name of readdirSync(SCENARIOS).filter((n) => n.endsWith('.ts'))) {
      const text = readFileSync(join(SCENARIOS, name), 'utf8');
      for (const trick of [/\.push\s*=/, /\._read\s*=/, /emit\(\s*'(pause|resume)'/]) {
        if (trick.test(text)) found.push(`${name}: ${trick}`);
      }
    }
    expect(found).toEqual([]);
  });
});
