import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FAILPOINTS_ENV, parseFailpoints } from '../../../src/storage/failpoints.js';

const SRC = fileURLToPath(new URL('../../../src', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('failpoints (test-only crash points)', () => {
  it('parses name:kill and name:throw with an optional hit count', () => {
    expect(
      parseFailpoints('log-synced-before-answer:kill, copy-prepared-before-commit:kill@3, listing-page-read:throw@2'),
    ).toEqual(
      new Map([
        ['log-synced-before-answer', { action: 'kill', hits: 1 }],
        ['copy-prepared-before-commit', { action: 'kill', hits: 3 }],
        ['listing-page-read', { action: 'throw', hits: 2 }],
      ]),
    );
  });

  it('refuses an unknown name, action or hit count, naming the part and the known names', () => {
    for (const bad of ['no-such-point:kill', 'log-synced-before-answer:pause', 'log-synced-before-answer:kill@0']) {
      expect(() => parseFailpoints(bad)).toThrow(`${FAILPOINTS_ENV}: "${bad}" is not name:kill[@hit]`);
    }
    expect(() => parseFailpoints('x:kill')).toThrow('log-synced-before-answer');
  });

  it('are armed only from the environment, read by the failpoint module itself (no option, route or API arms one)', () => {
    const readers = sources(SRC).filter((file) => readFileSync(file, 'utf8').includes('CSP_MOCK_FAILPOINTS'));
    expect(readers.map((f) => f.slice(SRC.length + 1))).toEqual(['storage/failpoints.ts']);
    const exported = readFileSync(join(SRC, 'storage/failpoints.ts'), 'utf8').match(/export (?:function|const) \w+/g);
    expect(exported).toEqual([
      'export const FAILPOINTS',
      'export const FAILPOINTS_ENV',
      'export function parseFailpoints',
      'export function failpoint',
    ]);
  });
});
