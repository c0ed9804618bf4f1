import { describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { readXml } from '../../helpers/cloud.js';
import {
  BASIC_DEMO,
  fetchAs,
  killServersAfterEach,
  refusesConnections,
  serve,
  ServeProcess,
} from '../../helpers/cli.js';
import { cliHere, serveHere, stopListeningAfterEach } from './in-process.js';

// The ready line, the signals and the exit status are the process's: those tests run csp-mock as a process.
describe('csp-mock serve: start, address and stop', () => {
  killServersAfterEach();
  stopListeningAfterEach();

  it('prints one line "listening on http://127.0.0.1:PORT" with the real port when started with --port 0', async () => {
    const server = await serve();
    const ready = server.stdout.filter((l) => l.includes('listening on'));
    expect(ready).toHaveLength(1);
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    const res = await fetchAs(`${server.url}/v2`);
    expect(res.status).toBe(200);
    expect((await res.text()).startsWith('<cloud')).toBe(true);
  });

  it('binds the address given by --host (and only it)', async () => {
    const server = await serveHere(['--host', '127.0.0.2']);
    expect(server.url).toBe(`http://127.0.0.2:${server.port}`);
    expect((await fetchAs(`${server.url}/v2`)).status).toBe(200);
    expect(await refusesConnections(server.port, '127.0.0.1')).toBe(true);
  });

  it.each(['SIGINT', 'SIGTERM'] as const)(
    'stops cleanly on %s: exit code 0 and the port is released',
    async (signal) => {
      const server = await serve();
      expect((await fetchAs(`${server.url}/v2`)).status).toBe(200);
      const exit = await server.stop(signal);
      expect(exit).toEqual({ code: 0, signal: null });
      expect(await refusesConnections(server.port)).toBe(true);
    },
  );

  it('stops on SIGTERM while a client holds a keep-alive connection open', async () => {
    const server = await serve();
    await fetchAs(`${server.url}/v2`, { headers: { Connection: 'keep-alive' } });
    expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null });
  });

  it('stops on SIGTERM in the middle of an upload with exit code 0', async () => {
    const server = await serve(['--empty']);
    const root = readXml(await (await fetchAs(`${server.url}/v2`)).text()).cloud.rootContainer['@_xlink:href'];
    const upload = request(`${root}/contents`.replace(/^https?:\/\/[^/]+/, server.url), {
      method: 'POST',
      headers: { Authorization: BASIC_DEMO, 'Content-Type': 'multipart/form-data; boundary=b' },
    });
    upload.on('error', () => undefined);
    upload.write('--b\r\nContent-Disposition: form-data; name="file"; filename="slow.bin"\r\n\r\n');
    upload.write(Buffer.alloc(64 * 1024, 1));
    await new Promise((r) => setTimeout(r, 200));
    expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    upload.destroy();
  });

  it.each([
    [['--port', 'abc'], /--port must be an integer from 0 to 65535/],
    [['--port', '70000'], /--port must be an integer from 0 to 65535/],
    [['--user', 'nopassword'], /--user must be NAME:PASSWORD, got "nopassword"/],
    [['--public-url', 'not a url'], /public URL must look like http\(s\):\/\/host/],
    [['--frobnicate'], /unknown option --frobnicate/],
    [['--host', 'no-such-host.invalid'], /cannot listen on no-such-host\.invalid:0/],
  ])('refuses bad arguments %j with one clear error and a non-zero exit', async (args, message) => {
    const run = await cliHere(['serve', '--port', '0', ...args]);
    expect(run.code).not.toBe(0);
    expect(run.context.running).toBeUndefined();
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toMatch(/^csp-mock: /);
    expect(run.stdout).not.toContain('listening on');
  });

  it('refuses a port already in use with a clear error', async () => {
    const first = await serveHere();
    const second = await cliHere(['serve', '--port', String(first.port)]);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`cannot listen on 127\\.0\\.0\\.1:${first.port}: .*EADDRINUSE`));
  });

  it('asks for a command when none is given', async () => {
    const proc = new ServeProcess([]);
    expect((await proc.exited).code).toBe(1);
    expect(proc.stderr[0]).toMatch(/name a command/);
  });
});
