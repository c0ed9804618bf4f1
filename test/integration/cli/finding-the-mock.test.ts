// Control commands find the mock started from the same folder: serve leaves its URL in the user's runtime
// folder (never in the project), removes it on stop, and a stale one (kill -9) is ignored with a line.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { killServersAfterEach, serve } from '../../helpers/cli.js';
import { cliHere, serveHere, stopListeningAfterEach } from './in-process.js';
import { useTempDir } from '../../helpers/temp-dir.js';

describe('control commands find the mock started here', { timeout: 60_000 }, () => {
  killServersAfterEach();
  stopListeningAfterEach();
  const temp = useTempDir('find-mock');

  /**
   * A project folder and a runtime folder of its own, and an environment naming no mock: whole for a child
   * process, as changes for a command run here.
   */
  function setup(): {
    project: string;
    runtime: string;
    env: NodeJS.ProcessEnv;
    changes: Record<string, string | undefined>;
  } {
    const project = join(temp.path, 'project');
    const runtime = join(temp.path, 'runtime');
    mkdirSync(project);
    mkdirSync(runtime, { mode: 0o700 });
    const changes: Record<string, string | undefined> = { XDG_RUNTIME_DIR: runtime };
    for (const name of Object.keys(process.env))
      if (name.startsWith('CSP_MOCK_') || name === 'PORT') changes[name] = undefined;
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: runtime };
    for (const name of Object.keys(env)) if (name.startsWith('CSP_MOCK_') || name === 'PORT') delete env[name];
    return { project, runtime, env, changes };
  }

  const cli = (args: string[], cwd: string, changes: Record<string, string | undefined>) =>
    cliHere(args, { cwd, env: changes });

  it("the suite gives each test file a runtime folder of its own: another file's serve in this folder is not found", () => {
    const own = process.env['XDG_RUNTIME_DIR']!;
    expect(own).toMatch(/csp-mock-test-runtime-/);
    expect(existsSync(join(own, 'csp-mock')) ? readdirSync(join(own, 'csp-mock')) : []).toEqual([]);
  });

  it('after serve -p 0, scenario use and requests reach it without --url; its file goes on SIGTERM', async () => {
    const { project, runtime, env, changes } = setup();
    const server = await serve([], { cwd: project, env });
    expect(readdirSync(project)).toEqual([]);
    const switched = await cli(['scenario', 'use', 'flaky-uploads'], project, changes);
    expect(switched.stderr).toBe('');
    expect(switched.stdout).toMatch(/^switched: scenario flaky-uploads/);
    expect((await cli(['scenario', 'show'], project, changes)).stdout).toMatch(/^scenario flaky-uploads/);
    expect(readdirSync(join(runtime, 'csp-mock'))).toHaveLength(1);
    expect(await server.stop('SIGTERM')).toMatchObject({ code: 0 });
    expect(readdirSync(join(runtime, 'csp-mock'))).toEqual([]);
  });

  it('a --url other than the mock started here is used, and the mismatch is said', async () => {
    const { project, changes } = setup();
    const here = await serveHere([], { cwd: project, env: changes });
    const elsewhere = await serveHere([], { cwd: temp.path, env: changes });
    const result = await cli(['reset', '--url', elsewhere.url], project, changes);
    expect(result.stdout).toBe(`reset ${elsewhere.url}\n`);
    expect(result.stderr).toBe(
      `csp-mock: note: the mock started in this folder (serve, pid ${process.pid}) listens on ${here.url}; using ${elsewhere.url} as given\n`,
    );
  });

  it("the README's config example (url 9000, CSP_MOCK_PORT=0) reaches the mock on its free port, and says so", async () => {
    const { project, changes } = setup();
    writeFileSync(
      join(project, 'csp-mock.config.json'),
      JSON.stringify({ port: 9000, scenario: 'slow-network', url: 'http://127.0.0.1:9000' }),
    );
    const server = await serveHere([], { cwd: project, env: { ...changes, CSP_MOCK_PORT: '0' } });
    const shown = await cli(['scenario', 'show'], project, changes);
    expect(shown.stdout).toMatch(/^scenario slow-network/);
    expect(shown.stderr).toBe(
      `csp-mock: note: using ${server.url}, where the mock started in this folder listens (serve, pid ${process.pid}), not the config file's url http://127.0.0.1:9000\n`,
    );
  });

  it('the address left by a killed mock (kill -9) is ignored with a line and forgotten', async () => {
    const { project, runtime, env, changes } = setup();
    // Where the command falls back to: nothing answers on port 9.
    writeFileSync(join(project, 'csp-mock.config.json'), JSON.stringify({ url: 'http://127.0.0.1:9' }));
    const server = await serve([], { cwd: project, env });
    await server.stop('SIGKILL');
    const [file] = readdirSync(join(runtime, 'csp-mock'));
    const result = await cli(['scenario', 'show'], project, changes);
    expect(result.stderr.split('\n')[0]).toBe(
      `csp-mock: note: ignored ${server.url}, left by serve (pid ${server.pid}) in ${join(runtime, 'csp-mock', file!)}: no csp-mock answers there any more`,
    );
    expect(result.stderr.split('\n')[1]).toMatch(/^csp-mock: no csp-mock answers at http:\/\/127\.0\.0\.1:9\b/);
    expect(result.code).toBe(1);
    expect(existsSync(join(runtime, 'csp-mock', file!))).toBe(false);
  });
});
