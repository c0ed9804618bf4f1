// `csp-mock requests --wait` and `--count` against a running mock: one line and exit 0 when a request
// matches, one clear line and exit 1 when the time runs out.
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { BASIC_DEMO } from '../../helpers/cli.js';
import { watchedMock } from '../../helpers/watched-mock.js';
import { cliHere } from './in-process.js';

const headers = { Authorization: BASIC_DEMO, 'X-Client-Specification': '2' };
const cli = (args: string[]) => cliHere(args);

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function started(): Promise<RunningMock> {
  const mock = await startMock();
  closers.push(() => mock.close());
  return mock;
}

describe('csp-mock requests --wait / --count', { timeout: 60_000 }, () => {
  it('--wait prints the first matching request that arrives after it started, and exits 0', async () => {
    const mock = await watchedMock();
    closers.push(mock.close);
    const waiting = cli(['requests', '--wait', '--method', 'GET', '--path', '/v2/*', '--url', mock.url]);
    await mock.subscribed;
    await fetch(`${mock.url}/v2/tags`, { headers });
    const result = await waiting;
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^#\d+ \S+ GET \/v2\/tags 200 .*user=demo\n$/);
  });

  it('--wait --after SEQ counts a request already recorded past the mark; --json prints the entry', async () => {
    const mock = await started();
    await fetch(`${mock.url}/v2/account`, { headers });
    const result = await cli(['requests', '--wait', '--after', '0', '--json', '--url', mock.url]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ seq: 1, path: '/v2/account', status: 200 });
  });

  it('--wait exits 1 with one line naming the filter when nothing matches within --timeout', async () => {
    const mock = await started();
    const result = await cli(['requests', '--wait', '--method', 'DELETE', '--timeout', '200', '--url', mock.url]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^csp-mock: no request matching method=DELETE since=\S+ arrived within 200 ms \(no other request arrived meanwhile\)\n$/,
    );
  });

  it('--count prints how many requests match; --wait with --follow is refused', async () => {
    const mock = await started();
    await fetch(`${mock.url}/v2/account`, { headers });
    await fetch(`${mock.url}/v2/nothing`, { headers });
    expect((await cli(['requests', '--count', '--url', mock.url])).stdout).toBe('2\n');
    expect((await cli(['requests', '--count', '--status', '404', '--user', 'demo', '--url', mock.url])).stdout).toBe(
      '1\n',
    );
    const both = await cli(['requests', '--wait', '--follow', '--url', mock.url]);
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/give one of --wait, --follow and --count/);
  });
});
