import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

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
});

mkdirSync(TMP_DIR, { recursive: true });
writeFileSync(EXAMPLE, block.replace("from 'csp-mock'", "from '../src/index.js'"));
afterAll(() => rmSync(EXAMPLE, { force: true }));
await import(/* @vite-ignore */ EXAMPLE);
