// Where serve's options come from: flag > CSP_MOCK_* (and PORT) > csp-mock.config.json > default.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { basic, fetchAs } from '../../helpers/cli.js';
import { cliHere, serveHere, stopListeningAfterEach, type ListeningRun } from './in-process.js';

const dir = mkdtempSync(join(tmpdir(), 'csp-mock-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The environment without any CSP_MOCK_* variable or PORT, then `env`. */
function cleanWith(env: Record<string, string>): Record<string, string | undefined> {
  const names = Object.keys(process.env).filter((k) => k.startsWith('CSP_MOCK_') || k === 'PORT');
  return { ...Object.fromEntries(names.map((k) => [k, undefined])), ...env };
}

function start(args: string[], env: Record<string, string>): Promise<ListeningRun> {
  return serveHere(args, { cwd: dir, env: cleanWith(env) });
}

describe('configuration', { timeout: 30_000 }, () => {
  stopListeningAfterEach();

  it('takes options from the environment (CSP_MOCK_PORT, PORT, CSP_MOCK_USER) and from csp-mock.config.json, a flag winning', async () => {
    writeFileSync(
      join(dir, 'csp-mock.config.json'),
      JSON.stringify({ port: 1, user: ['filed:pw'], publicUrl: 'https://from-file.test', empty: true }),
    );
    // The environment beats the file: port and user; the file still gives public-url and empty.
    const fromEnv = await start(['serve'], { CSP_MOCK_PORT: '0', CSP_MOCK_USER: 'env:pw' });
    expect((await fetchAs(`${fromEnv.url}/v2`, { auth: basic('env', 'pw') })).status).toBe(200);
    expect((await fetchAs(`${fromEnv.url}/v2`, { auth: basic('filed', 'pw') })).status).toBe(401);
    expect(await (await fetchAs(`${fromEnv.url}/v2`, { auth: basic('env', 'pw') })).text()).toContain(
      'https://from-file.test/v2/',
    );

    // PORT counts as the port; a flag beats the environment.
    const fromPort = await start(['serve', '--user', 'flag:pw'], { PORT: '0', CSP_MOCK_USER: 'env:pw' });
    expect((await fetchAs(`${fromPort.url}/v2`, { auth: basic('flag', 'pw') })).status).toBe(200);
    expect((await fetchAs(`${fromPort.url}/v2`, { auth: basic('env', 'pw') })).status).toBe(401);
    rmSync(join(dir, 'csp-mock.config.json'));
  });

  it('reads the admin token from --admin-token-file and says on the ready lines that one is required', async () => {
    writeFileSync(join(dir, 'token'), 'from-a-file\n');
    const server = await start(['serve', '-p', '0', '--admin-token-file', 'token'], {});
    expect(server.stdout.join('\n')).toMatch(/admin: +http:\/\/.*\/__admin \(admin token required\)/);
    expect((await fetch(`${server.url}/__admin/scenario`)).status).toBe(401);
    expect(
      (await fetch(`${server.url}/__admin/scenario`, { headers: { Authorization: 'Bearer from-a-file' } })).status,
    ).toBe(200);
  });

  it('refuses a bad environment value in one line', async () => {
    const result = await cliHere(['serve'], { cwd: dir, env: { CSP_MOCK_PORT: 'eighty' } });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('csp-mock: CSP_MOCK_PORT must be a number, got "eighty"');
  });

  it('refuses a config file field of the wrong kind ({"user": {"a": 1}}, "__proto__") in one line naming the file and the field', async () => {
    const folder = mkdtempSync(join(dir, 'bad-config-'));
    const file = join(folder, 'csp-mock.config.json');
    for (const [text, field] of [
      ['{"user": {"a": 1}}', '"user" must be a string, a number, true or false, or a list of strings, got an object'],
      ['{"port": null}', '"port" must be a string, a number, true or false, or a list of strings, got null'],
      ['{"user": [["a"]]}', '"user" must be a string, a number, true or false, or a list of strings, got a list'],
      ['{"__proto__": {"port": 1}}', '"__proto__" is not an option name'],
    ] as const) {
      writeFileSync(file, text);
      const result = await cliHere(['serve', '--port', '0'], { cwd: folder });
      expect(result.code, text).toBe(1);
      expect(result.stderr.trim(), text).toMatch(new RegExp(`^csp-mock: config file .*csp-mock\\.config\\.json: `));
      expect(result.stderr.trim(), text).toContain(field);
      expect(result.stderr.trim().split('\n'), text).toHaveLength(1);
    }
  });

  it("yargs' own .env('CSP_MOCK') and .config() give a control command the same order: flag > environment > file", async () => {
    const server = await start(['serve', '-p', '0'], {});
    const show = (args: string[], env: Record<string, string>) =>
      cliHere(['scenario', 'show', ...args], { cwd: dir, env: cleanWith(env) });
    const nobody = 'http://127.0.0.1:9';
    writeFileSync(join(dir, 'csp-mock.config.json'), JSON.stringify({ url: server.url }));
    expect((await show([], {})).stdout).toMatch(/^scenario default/);
    writeFileSync(join(dir, 'csp-mock.config.json'), JSON.stringify({ url: nobody }));
    expect((await show([], { CSP_MOCK_URL: server.url })).stdout).toMatch(/^scenario default/);
    const flagWins = await show(['--url', nobody], { CSP_MOCK_URL: server.url });
    // The flag wins over the mock started in this folder too, with a note saying so.
    expect(flagWins.stderr).toMatch(
      /^csp-mock: note: the mock started in this folder \(serve, pid \d+\) listens on http:\/\/127\.0\.0\.1:\d+; using http:\/\/127\.0\.0\.1:9 as given\ncsp-mock: no csp-mock answers at http:\/\/127\.0\.0\.1:9/,
    );
    rmSync(join(dir, 'csp-mock.config.json'));

    const named = await show(['--config', 'missing.json'], {});
    expect(named.stderr).toMatch(/^csp-mock: cannot read config file .*missing\.json: ENOENT/);
    const yes = await cliHere(['serve', '-p', '0'], { cwd: dir, env: cleanWith({ CSP_MOCK_EMPTY: 'yes' }) });
    expect(yes.stderr.trim()).toBe('csp-mock: CSP_MOCK_EMPTY must be true or false, got "yes"');
  });

  it('every command answers -h with examples', async () => {
    for (const command of ['serve', 'record', 'replay', 'verify', 'scenario', 'reset', 'requests', 'state']) {
      const help = await cliHere([command, '-h']);
      expect(help.stdout, command).toContain('Examples:');
    }
    expect((await cliHere(['-v'])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("-h lists the option table's options, also after a run without help in the same process (they are left out of help only then)", async () => {
    expect((await cliHere(['serve', '-p', 'x'])).stderr).toMatch(/port/);
    const help = await cliHere(['serve', '-h']);
    expect(help.stdout).toMatch(/^ {2}-p, --port /m);
    expect(help.stdout).toMatch(/^ +--admin-token /m);
  });
});
