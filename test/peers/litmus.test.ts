import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { requireProgram, runProgram } from './peer-process.js';

const SUITES = ['basic', 'copymove', 'props', 'locks', 'http'];

describe('litmus, the WebDAV compliance suite, against /dav', () => {
  let mock: RunningMock;
  let work: string;
  beforeEach(async () => {
    mock = await startMock({ seed: 'empty' });
    work = await mkdtemp(join(tmpdir(), 'csp-mock-litmus-')); // litmus writes debug.log and child.log here
  });
  afterEach(async () => {
    await mock.close();
    await rm(work, { recursive: true, force: true });
  });

  it('passes every test of the five default suites, none skipped, no warnings', { timeout: 180_000 }, async () => {
    const litmus = requireProgram('litmus');
    const run = await runProgram(litmus, ['--keep-going', `${mock.url}/dav/`, 'demo', 'demo'], {
      cwd: work,
      env: { TESTS: SUITES.join(' ') },
    });
    const summaries = [
      ...run.output.matchAll(/<- summary for `(\w+)': of (\d+) tests run: (\d+) passed, (\d+) failed/g),
    ];
    expect(
      summaries.map((m) => m[1]),
      run.output,
    ).toEqual(SUITES);
    for (const [, suite, ran, passed, failed] of summaries) {
      expect({ suite, passed: Number(passed), failed: Number(failed) }, run.output).toEqual({
        suite,
        passed: Number(ran),
        failed: 0,
      });
    }
    expect(run.output).not.toMatch(/skipped|SKIPPED/);
    expect(run.output).not.toMatch(/WARNING|warnings were issued/);
    expect(run.code, run.output).toBe(0);
  });
});
