import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBench } from '../../helpers/bench-command.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const TARGETS = [
  'GET file entity (c32)',
  'GET 40-item listing (c32)',
  'POST 1 KiB upload (c8)',
  'GET 8 MiB /v2 (c4)',
  'GET 8 MiB /dav (c4)',
  'PUT 4 MiB, RSS growth',
  'PUT 8 MiB, RSS growth',
  'RSS growth spread',
  'CLI cold start',
  'reset() (demo seed)',
  'startMock()+close()',
];

describe('npm run bench (dist/tools/bench/run.js)', () => {
  const tmp = useTempDir('bench');

  it(
    'runs briefly with the built-in client and prints and writes every target with its ratio and goal',
    { timeout: 90_000 },
    async () => {
      const json = join(tmp.path, 'bench.json');
      const { code, stdout, stderr } = await runBench(undefined, {
        BENCH_LOADGEN: 'node',
        BENCH_SECONDS: '0.05',
        BENCH_ROUNDS: '1',
        BENCH_UPLOAD_MIB: '4,8',
        BENCH_SPAWNS: '1',
        BENCH_JSON: json,
      });
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toMatch(/^csp-mock benchmark: node v\d+\.\d+\.\d+, \d+ x .*, load average [\d.]+ [\d.]+ [\d.]+\n/);
      expect(stdout).toMatch(/built-in node client, 0\.05 s per measurement, best of 1 interleaved rounds/);
      for (const target of TARGETS) {
        const row = stdout.split('\n').find((l) => l.startsWith(target));
        expect(row, target).toMatch(/ (met|NOT met)$/);
      }
      const report = JSON.parse(readFileSync(json, 'utf8')) as {
        throughput: Record<string, { baselinePerSecond: number; mockPerSecond: number; ratio: number; goal: number }>;
        rss: { uploads: { uploadMiB: number; growthMiB: number }[] };
        coldStart: { cliMs: number; bareMs: number; ratio: number };
        lifecycle: { resetMs: number; startCloseMs: number };
      };
      expect(Object.keys(report.throughput)).toEqual([
        'smallGet',
        'listing',
        'upload1k',
        'get8mRest',
        'get8mDav',
        'preflight',
      ]);
      for (const row of Object.values(report.throughput)) {
        expect(row.mockPerSecond).toBeGreaterThan(0);
        expect(row.ratio).toBeCloseTo(row.mockPerSecond / row.baselinePerSecond, 6);
      }
      expect(report.rss.uploads.map((u) => u.uploadMiB)).toEqual([4, 8]);
      expect(report.coldStart.cliMs).toBeGreaterThan(0);
      expect(report.coldStart.ratio).toBeCloseTo(report.coldStart.cliMs / report.coldStart.bareMs, 6);
      expect(report.lifecycle.resetMs).toBeGreaterThan(0);
      expect(report.lifecycle.startCloseMs).toBeGreaterThan(0);
    },
  );

  it('refuses a bad setting with a clear message and a non-zero exit', { timeout: 30_000 }, async () => {
    const { code, stderr } = await runBench(undefined, { BENCH_SECONDS: 'lots' });
    expect(code).toBe(1);
    expect(stderr).toMatch(/BENCH_SECONDS must be a number above 0 and at most 600, got "lots"/);
  });
});
