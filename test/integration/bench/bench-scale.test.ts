import { describe, expect, it } from 'vitest';
import { runBench } from '../../helpers/bench-command.js';

describe('npm run bench -- scale (dist/tools/bench/run.js scale)', () => {
  // About 35 s on a quiet machine; over 120 s at load 19 (its phases start servers and child processes in turn).
  it('runs every phase at a tiny size, prints each figure, and stops by itself', { timeout: 600_000 }, async () => {
    const { code, stdout, stderr } = await runBench('scale', {
      BENCH_SCALE_OBJECTS: '45',
      BENCH_SCALE_FOLDER: '20',
      BENCH_SCALE_COPY_NODES: '30',
      BENCH_SCALE_SEED_FILES: '25',
      BENCH_SCALE_LOCKS: '12',
      BENCH_SCALE_PUTS: '10',
      BENCH_SCALE_MILLION: '300',
      BENCH_SCALE_HEAP: '50',
      BENCH_SCALE_BIG_FOLDER: '30',
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^csp-mock scale benchmark: 45 objects, 16 keep-alive clients, folders of 20/);
    for (const mode of ['memory', '--data']) {
      expect(stdout).toMatch(
        new RegExp(`create rate, ${mode}: \\d+/s at ~20 objects, \\d+/s at ~4\\d objects = \\d+\\.\\d\\dx slower`),
      );
      expect(stdout).toMatch(new RegExp(`RSS, ${mode}, at 4\\d objects: \\d+ MiB`));
      expect(stdout).toMatch(new RegExp(`seeding 25 files by a scenario switch, ${mode}: \\d+\\.\\d ms`));
    }
    expect(stdout).toMatch(
      /restart, --data: clean stop \(final snapshot\) \d+\.\d\d s; start to "listening" \d+\.\d\d s/,
    );
    expect(stdout).toMatch(
      /restart, --data, after SIGKILL \(snapshot \+ log replay\): start to "listening" \d+\.\d\d s/,
    );
    expect(stdout).toMatch(/COPY of a \d+-node tree \(--data\): \d+\.\d ms; [1-9]\d* GET \/v2 sent meanwhile/);
    expect(stdout).toMatch(
      /PUT latency \(8 clients\): no locks p50 \d+\.\d ms mean \d+\.\d ms; 12 live locks p50 \d+\.\d ms/,
    );
    // The million-object row at 300 objects: the --data rate and restart are measured whichever way the state is made.
    expect(stdout).toMatch(
      /create rate, --data: \d+\/s at ~20 objects, \d+\/s at ~300 objects = \d+\.\d\dx slower \(target <= 1\.5x\); RSS \d+ MiB/,
    );
    expect(stdout).toMatch(
      /restart of 300 objects, --data \(\d+ MiB state file\): start to "listening" \d+\.\d\d s \(target <= 10 s\)/,
    );
    expect(stdout).toMatch(/300 objects, memory: (not measured|RSS after start \d+ MiB)/);
    expect(stdout).toMatch(
      /live heap per object \(heap snapshot\): -?\d+ B at \d+ objects created in memory \(.+\); -?\d+ B after loading them from --data/,
    );
    for (const what of ['/v2 contents, depth 0', '/v2 contents, depth 1', 'PROPFIND Depth 1']) {
      expect(stdout).toContain(`big folder of 30 files, ${what}`);
    }
    expect(stdout).toMatch(
      /big folder of 30 files, PROPFIND Depth 1 \(4 properties\), unchanged: first byte \d+\.\d ms \(goal <= 200 ms\), whole \d+ ms for [\d.]+ MB; RSS growth [\d.]+ MiB \(goal <= 64 MiB\)/,
    );
  });

  it('refuses a bad size with a clear message', { timeout: 30_000 }, async () => {
    const { code, stderr } = await runBench('scale', { BENCH_SCALE_OBJECTS: '0' });
    expect(code).toBe(1);
    expect(stderr).toMatch(/BENCH_SCALE_OBJECTS must be an integer from 1 to 1000000, got "0"/);
  });
});
