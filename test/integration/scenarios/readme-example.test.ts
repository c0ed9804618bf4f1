import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/index.js';

// The README's vitest example, run as it is written, with its 'csp-mock' import pointed at this checkout.
const README = fileURLToPath(new URL('../../../README.md', import.meta.url));
const MARKER = '<!-- readme-example: vitest -->';
const TMP_DIR = fileURLToPath(new URL('../../../.tmp/', import.meta.url));
const EXAMPLE = `${TMP_DIR}readme-example-${process.pid}.ts`;

const readme = readFileSync(README, 'utf8');
const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf(MARKER)))?.[1] ?? '';

describe('the README test-suite example', () => {
  it('is present after its marker and imports csp-mock', () => {
    expect(readme).toContain(MARKER);
    expect(block).toContain("from 'csp-mock'");
  });

  it('shows a scenario file that loads as written, saved beside the shipped scenarios/fixtures/logo.png', async () => {
    const section = readme.slice(readme.indexOf('## Scenarios and faults'));
    const json = /```json\n([\s\S]*?)```/.exec(section)![1]!;
    const dir = mkdtempSync(join(tmpdir(), 'csp-mock-readme-'));
    try {
      mkdirSync(join(dir, 'fixtures'));
      copyFileSync(
        fileURLToPath(new URL('../../../scenarios/fixtures/logo.png', import.meta.url)),
        join(dir, 'fixtures', 'logo.png'),
      );
      writeFileSync(join(dir, 'custom.json'), json);
      const app = await createApp({ scenario: join(dir, 'custom.json') });
      expect(app.scenario.name).toBe('custom');
      expect(app.scenario.faults).toHaveLength(3);
      expect(app.scenario.seed?.users).toEqual({ alice: 'wonderland' });
      await app.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

mkdirSync(TMP_DIR, { recursive: true });
writeFileSync(EXAMPLE, block.replace("from 'csp-mock'", "from '../src/index.js'"));
afterAll(() => rmSync(EXAMPLE, { force: true }));
await import(/* @vite-ignore */ EXAMPLE);
