import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { fetchAs, killServersAfterEach, ServeProcess } from '../../helpers/cli.js';
import { httpsRequest, readyFact, serveHttps, SERVICE_HEADERS, useCaFolder } from '../../helpers/tls.js';

describe('HTTP and HTTPS listening together', { timeout: 60_000 }, () => {
  killServersAfterEach();
  const ca = useCaFolder();
  let mock: RunningMock | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });

  it('startMock({ https: { port: 0 } }) serves one store on both: a file written over HTTP is read over HTTPS', async () => {
    mock = await startMock({ https: { port: 0, caDir: ca.path } });
    expect(mock.url).toMatch(/^http:\/\//);
    expect(mock.https!.url).toMatch(/^https:\/\//);
    expect(mock.https!.port).not.toBe(mock.port);

    const put = await fetchAs(`${mock.url}/dav/both-ways.txt`, { method: 'PUT', body: 'written over http' });
    expect(put.status).toBe(201);
    const read = await httpsRequest(`${mock.https!.url}/dav/both-ways.txt`, {
      ca: mock.https!.ca!,
      headers: SERVICE_HEADERS,
    });
    expect(read).toMatchObject({ status: 200, body: 'written over http' });

    // Each listener's links carry its own scheme and port.
    const plain = await (await fetchAs(`${mock.url}/v2`)).text();
    expect(plain).toContain(`xlink:href="${mock.url}/v2/containers/`);
    const secure = await httpsRequest(`${mock.https!.url}/v2`, { ca: mock.https!.ca!, headers: SERVICE_HEADERS });
    expect(secure.body).toContain(`xlink:href="${mock.https!.url}/v2/containers/`);
  });

  it('close() releases both ports', async () => {
    const m = await startMock({ https: { port: 0, caDir: ca.path } });
    const urls = [m.url, m.https!.url];
    await m.close();
    for (const url of urls) {
      const failed = await fetch(`${url}/v2`).then(
        () => false,
        () => true,
      );
      expect(failed, url).toBe(true);
    }
  });

  it('serve --https-port N prints the HTTP address first and the HTTPS one as a fact; both answer', async () => {
    const { server, url } = await serveHttps(['--https-port', '0'], ca.path);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const httpsUrl = readyFact(server, 'HTTPS')!;
    expect(httpsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetchAs(`${url}/v2`)).status).toBe(200);
    const caPem = await readFile(join(ca.path, 'ca.pem'));
    const secure = await httpsRequest(`${httpsUrl}/v2`, { ca: caPem, headers: SERVICE_HEADERS });
    expect(secure.status).toBe(200);
  });

  it('refuses --https-port equal to --port with one line', async () => {
    const p = new ServeProcess(['serve', '--port', '8123', '--https-port', '8123'], {
      env: { ...process.env, CSP_MOCK_CA_DIR: ca.path },
    });
    const exit = await p.exited;
    expect(exit.code).toBe(1);
    expect(p.stderr[0]).toBe('csp-mock: --https-port must differ from --port (HTTP listens on --port)');
  });
});
