// The command line's error lines: each mistake is one line in the user's words (no HTTP plumbing, no yargs
// listing), with the nearest choice when one is near, and exit code 1. One row per command and bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { cliHere } from './in-process.js';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0 });
});
afterAll(() => mock.close());

const ERROR_LINES: Array<[string[], string]> = [
  [
    ['scenario', 'use', 'flaky-upload'],
    'no scenario named "flaky-upload"; did you mean "flaky-uploads"? (known: default, empty, expired-credentials, flaky-uploads, mobile-network, observed, quota-exceeded, replay-example, slow-network, stalled-uploads, tag-objects-500)',
  ],
  [
    ['clock', 'advance', 'soon'],
    'advance: "soon" is not a duration: write a number with a unit (ms, s, m, h, d, w), e.g. "90s", "2d", "-5m", "1h30m"',
  ],
  [['change', 'rename', '/hello.json'], 'change rename needs --to (the new name)'],
  [['change', 'move', '/hello.json'], 'change move needs --to (the destination folder path)'],
  [
    ['change', 'renmae', '/hello.json'],
    'kind "renmae" is not one of create, create-folder, overwrite, rename, move, delete, metadata, tags, quota, json; did you mean "rename"?',
  ],
  [['audit', '--fail-on', 'warnin'], '--fail-on "warnin" is not one of warning, error, none; did you mean "warning"?'],
  [
    ['requests', '--outcome', 'reste'],
    '--outcome "reste" is not one of pending, answered, closed, reset, truncated, aborted; did you mean "reset"?',
  ],
  [['requests', '--method', 'GTE'], '--method GTE is no method the mock serves; did you mean GET?'],
  [
    ['requests', '--status', '2x'],
    '--status must be an HTTP status from 100 to 599 (404) or a class of them (4xx), got "2x"',
  ],
  [['serve', '--log-format', 'jsno'], '--log-format "jsno" is not one of text, json; did you mean "json"?'],
  [['serve', '--prot', '0'], 'unknown option --prot; did you mean --port?'],
];

describe("the CLI's error lines", { timeout: 60_000 }, () => {
  it.each(ERROR_LINES)('csp-mock %j says one line and exits 1', async (args, line) => {
    const result = await cliHere(args, { env: { CSP_MOCK_URL: mock.url } });
    expect(result.stderr).toBe(`csp-mock: ${line}\n`);
    expect(result.code).toBe(1);
  });

  it('a misspelt --recording names the recording it most likely meant', async () => {
    const result = await cliHere(['replay', '-p', '0', '--recording', 'exampel-session']);
    expect(result.stderr.split('\n')[0]).toMatch(
      /^csp-mock: cannot start: no recording named "exampel-session"; did you mean "example-session"\? \(looked in /,
    );
    expect(result.code).toBe(1);
  });

  it('requests --status 2xx takes a class of statuses, as the inspector does', async () => {
    await fetch(`${mock.url}/v2`, { headers: { Authorization: `Basic ${btoa('demo:demo')}` } });
    await fetch(`${mock.url}/v2/nowhere`, { headers: { Authorization: `Basic ${btoa('demo:demo')}` } });
    const env = { CSP_MOCK_URL: mock.url };
    const ok = await cliHere(['requests', '--status', '2xx'], { env });
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toMatch(/ GET \/v2 200 /);
    expect(ok.stdout).not.toMatch(/ 404 /);
    const failed = await cliHere(['requests', '--status', '4xx', '--count'], { env });
    expect(failed.stdout).toBe('1\n');
  });
});
