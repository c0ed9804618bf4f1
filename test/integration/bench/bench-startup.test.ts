import { describe, expect, it } from 'vitest';
import { runBench } from '../../helpers/bench-command.js';

describe('npm run bench -- startup (dist/tools/bench/run.js startup)', () => {
  it(
    'prints the four start-up rows alone, with the load average, and stops by itself',
    { timeout: 60_000 },
    async () => {
      const { code, stdout, stderr } = await runBench('startup', { BENCH_SPAWNS: '1' });
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const lines = stdout.trim().split('\n');
      expect(lines[0]).toMatch(
        /^csp-mock benchmark: node v\d+\.\d+\.\d+, \d+ x .*, load average [\d.]+ [\d.]+ [\d.]+$/,
      );
      expect(lines.slice(3).map((l) => l.split(/\s{2,}/)[0])).toEqual([
        'CLI cold start (`csp-mock scenarios`) bare `node -e 0` spawn',
        '`csp-mock serve` to its ready line bare node:http server',
        'reset() (demo seed)',
        'startMock()+close()',
      ]);
      expect(stdout).toMatch(/startMock\(\)\+close\(\)\s+-\s+-\s+\d+\.\d\d ms\s+-\s+<= 5 ms\s+(met|NOT met)/);
      expect(stdout).toMatch(
        /ready line\s+bare node:http server\s+\d+ ms\s+\d+ ms\s+\d+\.\d\dx\s+<= 2\.5x\s+(met|NOT met)/,
      );
      expect(stdout).not.toMatch(/req\/s|RSS/);
    },
  );
});
