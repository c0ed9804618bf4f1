// The README's connectMock example, run as written against a mock in this process (its URL swapped in).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startMock } from '../../../src/index.js';

const README = fileURLToPath(new URL('../../../README.md', import.meta.url));
const TMP_DIR = fileURLToPath(new URL('../../../.tmp/', import.meta.url));
const EXAMPLE = `${TMP_DIR}readme-connect-${process.pid}.ts`;
afterAll(() => rmSync(EXAMPLE, { force: true }));

describe('the README connectMock example', () => {
  it('switches the scenario, reads the journal and resets a mock running elsewhere', async () => {
    const readme = readFileSync(README, 'utf8');
    const block = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)]
      .map((m) => m[1]!)
      .find((b) => b.includes("connectMock('http://127.0.0.1:8080'"));
    expect(block).toBeDefined();
    const mock = await startMock();
    try {
      mkdirSync(TMP_DIR, { recursive: true });
      writeFileSync(
        EXAMPLE,
        `${block!.replace("from 'csp-mock'", "from '../src/index.js'").replace("'http://127.0.0.1:8080'", JSON.stringify(mock.url))}\nexport {};\n`,
      );
      await import(/* @vite-ignore */ EXAMPLE);
      expect(mock.scenario.name).toBe('flaky-uploads');
      expect(await mock.requests()).toEqual([]);
    } finally {
      await mock.close();
    }
  });
});
