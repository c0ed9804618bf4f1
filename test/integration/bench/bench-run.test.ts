import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BENCH = fileURLToPath(new URL('../../../dist/bench/run.js', import.meta.url));

function runBench(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BENCH], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run bench (dist/bench/run.js)', () => {
  it('runs with a tiny request count and prints the baseline/mock ratio table for the four scenarios', { timeout: 30_000 }, async () => {
    const { code, stdout, stderr } = await runBench({ BENCH_REQUESTS: '4', BENCH_CONCURRENCY: '2' });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^csp-mock benchmark: 4 requests per scenario, 2 concurrent/);
    expect(stdout).toMatch(/baseline req\/s +mock req\/s .* ratio time mock\/baseline/);
    for (const scenario of ['GET /v2', 'GET contents (40 items)', 'POST upload 1 KiB', 'GET 1 MiB content']) {
      const row = stdout.split('\n').find((l) => l.startsWith(scenario));
      expect(row, scenario).toMatch(/ \d+ +\d+ +\d+\.\d\d +\d+\.\d\d +\d+\.\d\d +\d+\.\d\dx$/);
    }
  });

  it('refuses a bad request count with a clear message and a non-zero exit', { timeout: 30_000 }, async () => {
    const { code, stderr } = await runBench({ BENCH_REQUESTS: 'lots' });
    expect(code).toBe(1);
    expect(stderr).toMatch(/BENCH_REQUESTS must be an integer from 1 to 1000000, got "lots"/);
  });
});
