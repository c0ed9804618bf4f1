// `csp-mock requests` against a served mock: --limit, number checks, and the network conditions in its lines.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fetchAs } from '../../helpers/cli.js';
import { cliHere, serveHere, stopListeningAfterEach } from './in-process.js';

const scratch = mkdtempSync(join(tmpdir(), 'csp-mock-requests-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const slowScenario = join(scratch, 'slow.json');
writeFileSync(slowScenario, JSON.stringify({ network: { bandwidth: { down: '1 MiB/s' } } }));

function cli(args: string[]) {
  return cliHere(args, { cwd: scratch });
}

describe('csp-mock requests', { timeout: 60_000 }, () => {
  stopListeningAfterEach();

  it('--limit N prints the last N requests (it was an unknown argument)', async () => {
    const server = await serveHere();
    for (const path of ['/v2/account', '/v2/tags', '/dav/Documents/readme.txt']) await fetchAs(`${server.url}${path}`);
    const last = await cli(['requests', '--limit', '2', '--url', server.url]);
    expect(last.stderr).toBe('');
    const lines = last.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(' GET /v2/tags 200 ');
    expect(lines[1]).toContain(' GET /dav/Documents/readme.txt 200 ');
  });

  it.each([
    [
      ['--status', 'abc'],
      /^csp-mock: --status must be an HTTP status from 100 to 599 \(404\) or a class of them \(4xx\), got "abc"/,
    ],
    [
      ['--status', '42'],
      /^csp-mock: --status must be an HTTP status from 100 to 599 \(404\) or a class of them \(4xx\), got "42"/,
    ],
    [['--limit', 'many'], /^csp-mock: --limit must be a number/],
    [['--limit', '0'], /^csp-mock: --limit must be a whole number of requests \(1 or more\), got 0/],
  ])('requests %j is refused with a clear error instead of sending NaN', async (args, message) => {
    const result = await cli(['requests', '--url', 'http://127.0.0.1:9', ...args]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/NaN|no csp-mock answers/);
  });

  it('the text lines show the network conditions a request met, as the server log does', async () => {
    const server = await serveHere(['--scenario', slowScenario]);
    await fetchAs(`${server.url}/dav/Documents/readme.txt`);
    const listed = await cli(['requests', '--url', server.url]);
    expect(listed.stdout).toMatch(/ GET \/dav\/Documents\/readme\.txt 200 .* network=bandwidth in=\d+B out=\d+B/);
    const logged = server
      .output()
      .stdout.split('\n')
      .find((l) => l.includes('/dav/Documents/readme.txt'));
    expect(logged).toMatch(/network=bandwidth in=\d+B out=\d+B/);
  });
});
