import { describe, expect, it } from 'vitest';
import { runBench } from '../../helpers/bench-command.js';

describe('npm run bench -- frontend (dist/tools/bench/run.js frontend)', () => {
  it(
    'prints the tenant rows and the Playwright route rows, each with its goal, and stops by itself',
    { timeout: 120_000 },
    async () => {
      const { code, stdout, stderr } = await runBench('frontend', { BENCH_TENANTS: '2', BENCH_PW_REQUESTS: '2' });
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toMatch(/^Tenants of one served mock, 2 made one after another \(median\)$/m);
      expect(stdout).toMatch(
        /^create a tenant \(POST \/__admin\/tenants\)\s+\d+\.\d\d ms\s+goal <= 5 ms\s+(met|NOT met)$/m,
      );
      expect(stdout).toMatch(/^delete a tenant\s+\d+\.\d\d ms\s+goal <= 5 ms\s+(met|NOT met)$/m);
      expect(stdout).toMatch(/^RSS of an idle tenant\s+-?\d+\.\d\d MiB\s+goal <= 2 MiB\s+(met|NOT met)$/m);
      expect(stdout).toMatch(/^Playwright route, GET \/v2, median of 2 sequential requests$/m);
      for (const row of [
        'interceptCloud \\(Node fetch\\)',
        'Playwright route to the mock \\(page\\)',
        'Playwright route, same bytes, no mock',
      ])
        expect(stdout).toMatch(new RegExp(`^${row}\\s+\\d+\\.\\d\\d ms$`, 'm'));
      expect(stdout).toMatch(/^overhead over interceptCloud\s+-?\d+\.\d\d ms\s+goal <= 2 ms\s+(met|NOT met)$/m);
    },
  );
});
