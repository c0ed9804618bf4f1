import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { httpsRequest, SERVICE_HEADERS, useCaFolder } from '../../helpers/tls.js';
import { rawExchange } from '../../helpers/raw-http.js';

const exchange = async (port: number, text: string): Promise<string> =>
  (await rawExchange(port, [text], 20_000)).received.toString('latin1');

describe('plain HTTP sent to the HTTPS port', { timeout: 60_000 }, () => {
  const ca = useCaFolder();
  let mock: RunningMock | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });

  it('answers a plain-text 400 pointing to https://, and HTTPS on the same port still answers', async () => {
    mock = await startMock({ https: { caDir: ca.path } });
    const port = mock.https!.port;
    const raw = await exchange(port, `GET /v2 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    expect(raw).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(raw).toContain('Content-Type: text/plain; charset=UTF-8');
    expect(raw).toContain(`this port speaks HTTPS: use https://127.0.0.1:${port}/`);
    const answer = await httpsRequest(`${mock.https!.url}/v2`, { ca: mock.https!.ca!, headers: SERVICE_HEADERS });
    expect(answer.status).toBe(200);
  });

  it('the same on the HTTPS port beside HTTP; the HTTP port is untouched', async () => {
    mock = await startMock({ https: { caDir: ca.path, port: 0 } });
    const raw = await exchange(mock.https!.port, 'POST /dav/x HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    const plain = await exchange(
      mock.port,
      `GET /v2 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${SERVICE_HEADERS.Authorization}\r\nX-Client-Specification: 2\r\nConnection: close\r\n\r\n`,
    );
    expect(plain).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('a connection that sends nothing is closed at the headers limit, and the server lives on', async () => {
    mock = await startMock({ https: { caDir: ca.path }, timeouts: { headersMs: 200 } });
    const socket = connect(mock.https!.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.on('close', () => resolve()));
    const answer = await httpsRequest(`${mock.https!.url}/v2`, { ca: mock.https!.ca!, headers: SERVICE_HEADERS });
    expect(answer.status).toBe(200);
  });
});
