// The CORS options of the command line: --cors-origin (repeatable), "*" with a warning, --no-cors, the environment and the config file.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { killServersAfterEach, serve } from '../../helpers/cli.js';
import { useTempDir } from '../../helpers/temp-dir.js';
import { cliHere, serveHere, stopListeningAfterEach } from './in-process.js';

// Run here, but for the warning on stderr: that one is the process's own stream.
killServersAfterEach();
stopListeningAfterEach();
const tmp = useTempDir('cors-options');
let mock: RunningMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  vi.restoreAllMocks();
});

/** The Access-Control-Allow-Origin a page on `origin` gets from GET /v2 (null: none), and the status. */
async function seenBy(url: string, origin: string): Promise<[number, string | null]> {
  const res = await fetch(`${url}/v2`, {
    headers: { Origin: origin, Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}` },
  });
  await res.arrayBuffer();
  return [res.status, res.headers.get('access-control-allow-origin')];
}

describe('csp-mock serve and CORS', () => {
  it('--cors-origin is repeatable, lets exactly those origins in, and the ready lines say so', async () => {
    const server = await serveHere([
      '--cors-origin',
      'https://a.example.test',
      '--cors-origin',
      'http://b.example.test:3000',
    ]);
    expect(server.stdout.join('\n')).toMatch(
      /CORS: +pages on localhost and https:\/\/a\.example\.test, http:\/\/b\.example\.test:3000/,
    );
    expect(await seenBy(server.url, 'https://a.example.test')).toEqual([200, 'https://a.example.test']);
    expect(await seenBy(server.url, 'http://b.example.test:3000')).toEqual([200, 'http://b.example.test:3000']);
    expect(await seenBy(server.url, 'https://c.example.test')).toEqual([403, null]);
    expect(await seenBy(server.url, 'http://localhost:5173')).toEqual([200, 'http://localhost:5173']);
  });

  it("--no-cors turns it off; CSP_MOCK_CORS_ORIGIN and the config file's corsOrigin list origins", async () => {
    const off = await serveHere(['--no-cors']);
    expect(await seenBy(off.url, 'http://localhost:5173')).toEqual([200, null]);
    const env = await serveHere([], {
      env: { CSP_MOCK_CORS_ORIGIN: 'https://a.example.test,https://b.example.test' },
    });
    expect(await seenBy(env.url, 'https://b.example.test')).toEqual([200, 'https://b.example.test']);
    writeFileSync(join(tmp.path, 'csp-mock.config.json'), JSON.stringify({ corsOrigin: ['https://c.example.test'] }));
    const file = await serveHere([], { cwd: tmp.path });
    expect(await seenBy(file.url, 'https://c.example.test')).toEqual([200, 'https://c.example.test']);
    expect(await seenBy(file.url, 'https://a.example.test')).toEqual([403, null]);
  });

  it('a malformed --cors-origin is one line naming the option and the value, exit 1', async () => {
    const bad = await cliHere(['serve', '--port', '0', '--cors-origin', 'app.example.test/path']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--cors-origin "app.example.test/path" is not an origin');
  });

  it('"*" only when given, with a warning line on start (startMock too)', async () => {
    const any = await serve(['--cors-origin', '*']);
    expect(any.stdout.join('\n')).toMatch(/CORS: +ANY web page may call \/v2, \/dav and \/cdmi/);
    expect(any.stderr.join('\n')).toContain('csp-mock: warning: CORS allows every origin');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mock = await startMock({ corsOrigins: ['*'], log: () => undefined });
    expect(warn.mock.calls.flat().join('\n')).toContain('CORS allows every origin');
    expect(await seenBy(mock.url, 'https://anything.example')).toEqual([200, 'https://anything.example']);
  });
});
