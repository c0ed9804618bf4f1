// `csp-mock scenario|reset|requests|state` against a `csp-mock serve` in another process, as a user drives it.
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fetchAs, killServersAfterEach, ServeProcess } from '../../helpers/cli.js';
import { cliHere, serveHere, stopListeningAfterEach } from './in-process.js';

const TOKEN = 'remote-control-token';
const scratch = mkdtempSync(join(tmpdir(), 'csp-mock-remote-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function cli(args: string[], env: Record<string, string> = {}) {
  return cliHere(args, { cwd: scratch, env });
}

// The commands run here; `requests --follow` runs as a process, to be stopped with a signal.
describe('controlling a running mock from the command line', { timeout: 60_000 }, () => {
  killServersAfterEach();
  stopListeningAfterEach();

  it('switches and shows the scenario, lists filtered requests, resets, with --url and the token from the environment', async () => {
    const server = await serveHere(['--admin-token', TOKEN]);
    const env = { CSP_MOCK_URL: server.url, CSP_MOCK_ADMIN_TOKEN: TOKEN };

    const used = await cli(['scenario', 'use', 'tag-objects-500'], env);
    expect(used.stderr).toBe('');
    expect(used.stdout).toMatch(/^switched: scenario tag-objects-500, 1 fault rule/);
    const shown = await cli(['scenario', 'show', '--json'], env);
    expect(JSON.parse(shown.stdout)).toMatchObject({ name: 'tag-objects-500', faults: 1 });

    expect((await fetchAs(`${server.url}/v2/tags/important/objects`)).status).toBe(500);
    expect((await fetchAs(`${server.url}/v2`)).status).toBe(200);
    const failed = await cli(['requests', '--status', '500', '--json'], env);
    const lines = failed.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ path: '/v2/tags/important/objects', status: 500, fault: expect.any(String) });
    const text = await cli(['requests', '--path', '/v2/tags/**', '--method', 'get'], env);
    expect(text.stdout).toMatch(/^#\d+ \S+ GET \/v2\/tags\/important\/objects 500 .*fault=/);
    expect(text.stdout).not.toMatch(/ \/v2 200/);

    const reset = await cli(['reset', '--url', server.url, '--admin-token', TOKEN]);
    expect(reset.stdout).toContain(`reset ${server.url}`);
    expect((await cli(['requests'], env)).stdout).toBe('');
  });

  it('prints the state as a tree, as JSON for one user, and as a seed a scenario file accepts', async () => {
    const server = await serveHere(['--user', 'ann:pw', '--user', 'demo:demo']);
    const env = { CSP_MOCK_URL: server.url };
    const tree = await cli(['state'], env);
    expect(tree.stdout).toMatch(/^scenario default/);
    expect(tree.stdout).toMatch(/\n {2}Documents\/\n(?: {4}.*\n)* {4}readme\.txt {2}\d+ bytes, text\/plain/);
    const json = JSON.parse((await cli(['state', '--user', 'ann', '--json'], env)).stdout);
    expect(Object.keys(json.users)).toEqual(['ann']);

    const out = join(scratch, 'scenarios', 'exported.json');
    const saved = await cli(['state', '--seed', '--out', out, '--inline-limit', '20'], env);
    expect(saved.stdout).toMatch(/wrote .*exported\.json and \d+ fixture file\(s\)/);
    const exported = JSON.parse(readFileSync(out, 'utf8'));
    const documents = exported.seed.trees.demo.find((n: { container?: string }) => n.container === 'Documents');
    const readme = documents.children.find((n: { file?: string }) => n.file === 'readme.txt');
    expect(readme.fixture).toMatch(/^fixtures\//);
    expect(readFileSync(join(scratch, 'scenarios', readme.fixture), 'utf8')).toContain('Welcome, demo');

    // The export is a scenario: a new mock started from it holds the same files.
    const again = await serveHere(['--scenario', out, '--user', 'ann:pw', '--user', 'demo:demo']);
    const body = await (await fetchAs(`${again.url}/dav/Documents/readme.txt`)).text();
    expect(body).toContain('Welcome, demo');
  });

  it('requests --follow prints each request once it completes, filtered, until stopped', async () => {
    const server = await serveHere();
    const follower = new ServeProcess(
      ['requests', '--follow', '--url', server.url, '--path', '/v2/**', '--interval', '100'],
      { cwd: scratch },
    );
    await fetchAs(`${server.url}/dav/Documents/readme.txt`);
    await fetchAs(`${server.url}/v2/account`);
    await fetchAs(`${server.url}/v2/tags`);
    expect(await follower.waitForLine(/ GET \/v2\/tags 200 /)).toMatch(/^#\d+ /);
    expect(follower.stdout.filter((l) => l.includes('/v2/account'))).toHaveLength(1);
    expect(follower.stdout.some((l) => l.includes('/dav/'))).toBe(false);
    expect((await follower.stop('SIGINT')).code).toBe(0);
  });

  it('says in one line when nothing answers at --url, and when the admin token is missing', async () => {
    const none = await cli(['scenario', 'show', '--url', 'http://127.0.0.1:9']);
    expect(none.code).toBe(1);
    expect(none.stderr.trim().split('\n')).toHaveLength(1);
    expect(none.stderr).toMatch(/^csp-mock: no csp-mock answers at http:\/\/127\.0\.0\.1:9/);

    const server = await serveHere(['--admin-token', TOKEN]);
    const refused = await cli(['reset', '--url', server.url]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/requires an admin token: give --admin-token or CSP_MOCK_ADMIN_TOKEN/);
    expect(existsSync(scratch)).toBe(true);
  });
});
