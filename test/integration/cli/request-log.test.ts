// What serve prints per request: the fault rule that fired and how the connection ended; json, quiet, verbose.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { basic, fetchAs, killServersAfterEach, serve } from '../../helpers/cli.js';
import { serveHere, stopListeningAfterEach, type ListeningRun } from './in-process.js';

const dir = mkdtempSync(join(tmpdir(), 'csp-mock-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const scenario = join(dir, 'wire.json');
writeFileSync(
  scenario,
  JSON.stringify({
    faults: [
      { name: 'cut-readme', match: { method: 'GET', path: '/dav/Documents/readme.txt' }, truncateAfterBytes: 10 },
      { name: 'drop-tags', match: { method: 'GET', path: '/v2/tags' }, connection: 'reset' },
    ],
  }),
);

/** A GET that tolerates the connection going away; resolves when it has. */
function rawGet(url: string): Promise<void> {
  return new Promise((resolve) => {
    const req = request(
      url,
      { headers: { Authorization: basic('demo', 'demo'), 'X-Client-Specification': '2' } },
      (res) => {
        res.resume();
        res.on('close', () => resolve());
      },
    );
    req.on('error', () => resolve());
    req.end();
  });
}

async function lineFor(server: Pick<ListeningRun, 'waitForLine'>, pattern: RegExp): Promise<string> {
  return server.waitForLine(pattern);
}

// serve runs here, but for the test of its whole stdout as a process.
describe('the request log', { timeout: 30_000 }, () => {
  killServersAfterEach();
  stopListeningAfterEach();

  it('names the fault rule that fired and the outcome: truncated after N bytes, reset by the mock', async () => {
    const server = await serveHere(['--scenario', scenario]);
    await rawGet(`${server.url}/dav/Documents/readme.txt`);
    await rawGet(`${server.url}/v2/tags`);
    expect(await lineFor(server, /^GET \/dav\/Documents\/readme\.txt/)).toMatch(
      / 200 .*user=demo fault=cut-readme \(truncated after 10 bytes\)$/,
    );
    expect(await lineFor(server, /^GET \/v2\/tags /)).toMatch(/ - .*fault=drop-tags \(reset by the mock\)$/);
  });

  it('--log-format json writes one object a line; --quiet writes none; --verbose shows headers and bodies without secrets', async () => {
    const json = await serveHere(['--log-format', 'json']);
    await fetchAs(`${json.url}/v2`);
    const line = JSON.parse(await lineFor(json, /^\{.*"path":"\/v2"/));
    expect(line).toMatchObject({
      method: 'GET',
      path: '/v2',
      status: 200,
      user: 'demo',
      fault: null,
      outcome: 'answered',
    });

    const quiet = await serveHere(['--quiet']);
    await fetchAs(`${quiet.url}/v2`);
    await fetchAs(`${quiet.url}/v2`);
    expect(
      quiet
        .output()
        .stdout.split('\n')
        .filter((l) => l.startsWith('GET ')),
    ).toEqual([]);

    const verbose = await serveHere(['--verbose']);
    await fetchAs(`${verbose.url}/v2/account`);
    await lineFor(verbose, /^ {2}< <account-info/);
    const output = verbose.output().stdout;
    expect(output).toContain('  > authorization: [removed]');
    expect(output).not.toContain(basic('demo', 'demo'));
    expect(output).toMatch(/<authkey>\[removed\]<\/authkey>/);
    expect(output).not.toContain('csp-mock-not-a-real-key');
  });

  it('every stdout line of serve --log-format json is JSON: the ready lines, a request, a warning and the stop', async () => {
    const server = await serve(['--log-format', 'json']);
    // No X-Client-Specification: served with a warning line.
    await fetchAs(`${server.url}/v2`, { spec: false });
    await lineFor(server, /"path":"\/v2"/);
    expect(await server.stop('SIGINT')).toMatchObject({ code: 0 });
    const events = server.stdout.filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events[0]).toMatchObject({ event: 'ready', command: 'serve', url: server.url });
    expect((events[0]!['facts'] as Record<string, string>)['REST']).toBe(`${server.url}/v2`);
    expect(events).toContainEqual(
      expect.objectContaining({
        event: 'warning',
        message: expect.stringMatching(/^GET \/v2 sent no X-Client-Specification/),
      }),
    );
    expect(events).toContainEqual(expect.objectContaining({ method: 'GET', path: '/v2', status: 200 }));
    expect(events.at(-1)).toMatchObject({ event: 'stop', reason: 'SIGINT' });
  });
});
