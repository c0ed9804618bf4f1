import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BENCH = fileURLToPath(new URL('../../../dist/tools/bench/run.js', import.meta.url));

describe('npm run bench -- frontend (dist/tools/bench/run.js frontend)', () => {
  it(
    'prints the tenant rows and the Playwright route rows, each with its goal, and stops by itself',
    { timeout: 120_000 },
    async () => {
      const child = spawn(process.execPath, [BENCH, 'frontend'], {
        env: { ...process.env, BENCH_TENANTS: '2', BENCH_PW_REQUESTS: '2' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const code = await new Promise((resolve) => child.on('exit', resolve));
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
