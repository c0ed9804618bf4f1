import { describe, expect, it } from 'vitest';
import { runBench } from '../../helpers/bench-command.js';

describe('npm run bench -- explore (dist/tools/bench/run.js explore)', () => {
  it(
    "prints explore's own time, shrinking, replay and the correct client's rows, and stops by itself",
    { timeout: 120_000 },
    async () => {
      const { code, stdout, stderr } = await runBench('explore', {
        BENCH_EXPLORE_RUNS: '1',
        BENCH_EXPLORE_STEPS: '2',
        BENCH_EXPLORE_PASS_MS: '1',
        BENCH_EXPLORE_SEARCH: '1',
      });
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toMatch(/^explore \(issue 35\): 2 steps a run$/m);
      expect(stdout).toMatch(/^one run, client 1 ms a pass: in all\s+\d+\.\d\d s$/m);
      expect(stdout).toMatch(/^ {2}explore's own\s+\d+\.\d\d s\s+goal <= 5 s\s+(met|NOT met)$/m);
      expect(stdout).toMatch(
        /^(shrinking a \d+-step failure to \d+ \(\d+ runs\)\s+\d+\.\d\d s\s+goal <= 60 s\s+(met|NOT met)|shrinking: the planted bug was not found)$/m,
      );
      expect(stdout).toMatch(/^replay of its bundle: runs finding it\s+\d+ of 10\s+goal 10 of 10\s+(met|NOT met)$/m);
      expect(stdout).toMatch(
        /^the correct client, 1 runs: (no finding|a finding)\s+\d+\.\d\d s\s+goal no finding\s+(met|NOT met)$/m,
      );
    },
  );
});
