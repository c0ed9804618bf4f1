import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { connectMock, startMock } from '../../../src/index.js';
import { runProgram } from '../../peers/peer-process.js';
import { useTempDir } from '../../helpers/temp-dir.js';
import { chromiumPath } from '../../helpers/chromium.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CONFIG = fileURLToPath(new URL('../../fixtures/playwright/playwright.config.ts', import.meta.url));
const PLAYWRIGHT_CLI = join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');
const README_EXAMPLE = fileURLToPath(new URL('../../fixtures/playwright/readme-example.pw.ts', import.meta.url));
const REFERENCE = fileURLToPath(new URL('../../../src/playwright/README.md', import.meta.url));

/** What the runner's JSON reporter says of each test: its title, status and the worker slot it ran in. */
interface ReportedTest {
  title: string;
  status: string;
  parallelIndex: number;
  workerIndex: number;
  error: string | undefined;
}

interface JsonSuite {
  suites?: JsonSuite[];
  specs?: Array<{
    title: string;
    tests: Array<{
      results: Array<{ status: string; parallelIndex: number; workerIndex: number; error?: { message?: string } }>;
    }>;
  }>;
}

function testsOf(suite: JsonSuite): ReportedTest[] {
  const own = (suite.specs ?? []).flatMap((spec) =>
    spec.tests.flatMap((t) =>
      t.results.map((r) => ({
        title: spec.title,
        status: r.status,
        parallelIndex: r.parallelIndex,
        workerIndex: r.workerIndex,
        error: r.error?.message,
      })),
    ),
  );
  return [...own, ...(suite.suites ?? []).flatMap(testsOf)];
}

describe('the real @playwright/test runner with csp-mock/playwright', () => {
  const dir = useTempDir('playwright-runner');

  /** Runs one project of the fixture config with the real runner; resolves to its tests and its output. */
  async function runProject(project: string, env: Record<string, string> = {}) {
    const report = join(dir.path, `${project}-report.json`);
    const run = await runProgram(process.execPath, [PLAYWRIGHT_CLI, 'test', '-c', CONFIG, '--project', project], {
      cwd: ROOT,
      env: {
        CHROMIUM_PATH: chromiumPath(),
        PW_JSON_REPORT: report,
        PW_OUTPUT_DIR: join(dir.path, `${project}-results`),
        CI: '1',
        ...env,
      },
      timeoutMs: 240_000,
    });
    return { run, tests: testsOf(JSON.parse(await readFile(report, 'utf8')) as JsonSuite) };
  }

  it('runs 19 tests on 4 workers in Chromium, each against a mock of its own: its own folder, its own scenario, users and clock', async () => {
    const { run, tests } = await runProject('routed');
    const failed = tests.filter((t) => t.status !== 'passed');
    expect(failed, run.output).toEqual([]);
    expect(tests).toHaveLength(19);
    expect(tests.map((t) => t.title)).toContain('the app sees the 500 that its own scenario injects');
    expect(tests.filter((t) => t.title.includes('a 500 for a tag listing'))).toHaveLength(8);
    expect(new Set(tests.map((t) => t.parallelIndex))).toEqual(new Set([0, 1, 2, 3]));
    expect(run.code).toBe(0);
  }, 300_000);

  it('gives each of 4 workers a tenant of its own of one served mock, deletes them after, and leaves the default mock untouched', async () => {
    const lines: string[] = [];
    const mock = await startMock({ log: (line) => lines.push(line) });
    try {
      const remote = connectMock(mock.url);
      const stateBefore = await remote.state();
      const { run, tests } = await runProject('served', { CSP_MOCK_URL: mock.url });
      const failed = tests.filter((t) => t.status !== 'passed');
      expect(failed, run.output).toEqual([]);
      expect(tests).toHaveLength(8);
      // The first four tests start at once, one on each worker.
      expect(new Set(tests.map((t) => t.parallelIndex))).toEqual(new Set([0, 1, 2, 3]));
      expect(run.code).toBe(0);

      // One tenant per worker, named for it, made and then deleted.
      const created = lines.flatMap((l) => /^tenant: (\S+) created/.exec(l)?.[1] ?? []);
      const deleted = lines.flatMap((l) => /^tenant: (\S+) deleted$/.exec(l)?.[1] ?? []);
      const workers = [...new Set(tests.map((t) => t.workerIndex))].sort();
      expect(created.map((name) => Number(/^pw-(\d+)-[0-9a-f]{8}$/.exec(name)?.[1])).sort()).toEqual(workers);
      expect([...deleted].sort()).toEqual([...created].sort());
      expect(await remote.tenants()).toEqual([]);

      // The default mock saw no request of the service, and its state is as it was.
      expect((await mock.requests()).filter((e) => !e.path.startsWith('/__admin'))).toEqual([]);
      expect(await remote.state()).toEqual(stateBefore);
    } finally {
      await mock.close();
    }
  }, 300_000);

  it("the reference's example spec is the file the runner runs", async () => {
    const reference = await readFile(REFERENCE, 'utf8');
    const block = /```ts\n(import \{ test, expect \} from 'csp-mock\/playwright';[\s\S]*?)```/.exec(reference)?.[1];
    expect(block).toBe(await readFile(README_EXAMPLE, 'utf8'));
  });
});
