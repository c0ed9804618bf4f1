// What a mistyped command, option or scenario name, or a taken port, gets: a hint at what was meant.
import { describe, expect, it } from 'vitest';
import { cliHere, serveHere, stopListeningAfterEach } from './in-process.js';

describe('mistakes on the command line', { timeout: 60_000 }, () => {
  stopListeningAfterEach();

  it('a mistyped command gets "did you mean" (csp-mock serv)', async () => {
    const result = await cliHere(['serv']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^csp-mock: Did you mean serve\?/);
  });

  it('a mistyped option gets "did you mean" and nothing starts (serve --prot 0)', async () => {
    const result = await cliHere(['serve', '--prot', '0']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^csp-mock: unknown option --prot; did you mean --port\?/);
    expect(result.stdout).not.toContain('listening');
    const sub = await cliHere(['requests', '--limt', '3']);
    expect(sub.stderr).toMatch(/unknown option --limt; did you mean --limit\?/);
  });

  it('CSP_MOCK_* variables of other commands, or of no command, are not unknown options', async () => {
    const server = await serveHere([], {
      env: { CSP_MOCK_URL: 'http://127.0.0.1:1', CSP_MOCK_MAX_FILE_BYTES: '1000000' },
    });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('scenario use flaky-upload (a near miss) suggests the closest name', async () => {
    const server = await serveHere();
    const result = await cliHere(['scenario', 'use', 'flaky-upload', '--url', server.url]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/no scenario named "flaky-upload"; did you mean "flaky-uploads"\?/);
  });

  it('a port in use gets a hint: -p 0, and how to find which process holds it', async () => {
    const first = await serveHere();
    const second = await cliHere(['serve', '--port', String(first.port)]);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/EADDRINUSE/);
    expect(second.stderr).toContain(`port ${first.port} is in use: "-p 0" picks a free port`);
    expect(second.stderr).toContain(`lsof -i :${first.port}`);
  });
});
