// `csp-mock audit` against a running mock and on a saved journal: the text and JSON reports, and the exit
// code CI reads (--fail-on, --max-findings).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type AuditReport, type RunningMock } from '../../../src/index.js';
import { BASIC_DEMO } from '../../helpers/cli.js';
import { cliHere } from './in-process.js';

const headers = { Authorization: BASIC_DEMO, 'X-Client-Specification': '2' };
const scratch = mkdtempSync(join(tmpdir(), 'csp-mock-audit-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const cli = (args: string[]) => cliHere(args, { cwd: scratch });

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({
    scenario: {
      faults: [
        { name: 'tags-500', match: { method: 'GET', path: '/v2/tags' }, times: 1, respond: { status: 500 } },
        {
          name: 'account-503',
          match: { method: 'GET', path: '/v2/account' },
          times: 1,
          respond: { status: 503, headers: { 'Retry-After': '30' } },
        },
      ],
    },
  });
});
afterAll(() => mock.close());
afterEach(() => mock.reset());

/** A client that retries at once: a warning (no backoff after the 500) and an error (Retry-After: 30 ignored). */
async function retryAtOnce(): Promise<void> {
  for (const path of ['/v2/tags', '/v2/tags', '/v2/account', '/v2/account'])
    await (await fetch(`${mock.url}${path}`, { headers })).arrayBuffer();
}

describe('csp-mock audit', { timeout: 60_000 }, () => {
  it('prints each finding with its requests, and exits 1 on an error finding (the default --fail-on error)', async () => {
    await retryAtOnce();
    const result = await cli(['audit', '--url', mock.url]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^2 findings \(1 error, 1 warning\) in 4 requests\n/);
    expect(result.stdout).toMatch(/\nwarning retry-without-backoff: GET \/v2\/tags was retried \d+ ms after a 500, /);
    expect(result.stdout).toMatch(/\n {2}#\d+ \S+ GET \/v2\/tags 500\n {2}#\d+ \S+ GET \/v2\/tags 200\n/);
    expect(result.stdout).toMatch(
      /\nerror retry-after-ignored: GET \/v2\/account was retried \d+ ms after a 503 whose Retry-After: 30 asked for 30 s/,
    );
    expect(result.stderr).toBe('csp-mock: audit failed: 1 error at --fail-on error\n');
  });

  it('--fail-on none, --max-findings, --rule and --json', async () => {
    await retryAtOnce();
    expect((await cli(['audit', '--fail-on', 'none', '--url', mock.url])).code).toBe(0);
    expect((await cli(['audit', '--fail-on', 'none', '--max-findings', '2', '--url', mock.url])).code).toBe(0);
    const over = await cli(['audit', '--fail-on', 'none', '--max-findings', '1', '--url', mock.url]);
    expect([over.code, over.stderr]).toEqual([1, 'csp-mock: audit failed: 2 findings, more than --max-findings 1\n']);
    const warnings = await cli([
      'audit',
      '--rule',
      'retry-without-backoff',
      '--fail-on',
      'warning',
      '--json',
      '--url',
      mock.url,
    ]);
    expect(warnings.code).toBe(1);
    const report = JSON.parse(warnings.stdout) as AuditReport;
    expect(report.rules).toEqual(['retry-without-backoff']);
    expect(report.findings.map((f) => [f.rule, f.severity, f.requests.map((r) => [r.path, r.status])])).toEqual([
      [
        'retry-without-backoff',
        'warning',
        [
          ['/v2/tags', 500],
          ['/v2/tags', 200],
        ],
      ],
    ]);
    const later = await cli(['audit', '--min-backoff-ms', '0', '--rule', 'retry-without-backoff', '--url', mock.url]);
    expect(later.stdout).toBe('no findings in 4 requests (1 rule)\n');
  });

  it('audits a journal saved with requests --json, and names the line of a file that is not one', async () => {
    await retryAtOnce();
    const saved = await cli(['requests', '--json', '--url', mock.url]);
    writeFileSync(join(scratch, 'run.jsonl'), saved.stdout);
    const fromFile = await cli(['audit', '--file', 'run.jsonl', '--fail-on', 'none']);
    const live = await cli(['audit', '--url', mock.url, '--fail-on', 'none']);
    expect(fromFile.code).toBe(0);
    expect(fromFile.stdout).toBe(live.stdout);
    writeFileSync(join(scratch, 'broken.jsonl'), `${saved.stdout.split('\n')[0]}\n{"seq": 2}\n`);
    const broken = await cli(['audit', '--file', 'broken.jsonl']);
    expect([broken.code, broken.stderr]).toEqual([
      1,
      'csp-mock: broken.jsonl:2 is not a journal entry (seq, time, method, path, query, headers, status, outcome)\n',
    ]);
  });

  it('a client that waits reports no findings and exits 0; a bad threshold is refused', async () => {
    await (await fetch(`${mock.url}/v2/tags`, { headers })).arrayBuffer();
    const clean = await cli(['audit', '--url', mock.url, '--fail-on', 'warning']);
    expect([clean.code, clean.stdout]).toEqual([0, 'no findings in 1 request (7 rules)\n']);
    const bad = await cli(['audit', '--min-polls', '-3', '--url', mock.url]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/audit option minPolls must be a number of 0 or more, got -3/);
  });
});
