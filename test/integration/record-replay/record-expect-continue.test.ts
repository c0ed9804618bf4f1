import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock } from '../../../src/index.js';
import { binaryBytes, send } from '../../support/example-client/http-client.js';
import { readJson, storedBase64, useTempDir } from './support.js';

/** An upstream whose handling of Expect: 100-continue the test chooses. */
async function upstreamWith(
  onExpect: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => res.writeHead(500).end());
  server.on('checkContinue', onExpect);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('record mode: Expect: 100-continue decided by the upstream', () => {
  const tmp = useTempDir();
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    while (open.length) await open.pop()!.close();
  });

  it('an early refusal reaches the client before it sends the body, is recorded without it, and replays for any body', async () => {
    const upstream = await upstreamWith((_req: IncomingMessage, res: ServerResponse) => {
      res
        .writeHead(415, { 'Content-Type': 'text/plain; charset=UTF-8' })
        .end('415 unsupported media type "text/plain"\n');
    });
    open.push(upstream);
    const out = join(tmp.path, 'refusal.json');
    const recorder = await startMock({ mode: { kind: 'record', upstream: upstream.url, out } });
    const upload = {
      method: 'POST',
      path: '/v2/containers/C1/contents',
      headers: { 'Content-Type': 'text/plain' },
      body: binaryBytes(2000),
      expectContinue: true,
    };
    const refused = await send(recorder.url, upload);
    expect(refused.status).toBe(415);
    expect(refused.continued).toBe(false);
    await recorder.close();
    const [e] = (await readJson(out)).exchanges;
    expect(e!.request).toMatchObject({ method: 'POST', partialBody: true });
    expect(e!.request.body).toBeUndefined();

    const replay = await startMock({ mode: { kind: 'replay', recording: out } });
    open.push(replay);
    const again = await send(replay.url, { ...upload, body: 'some other body', expectContinue: false });
    expect(again.status).toBe(415);
    expect(again.body.toString()).toBe('415 unsupported media type "text/plain"\n');
  });

  it('an upstream that never says 100 still gets the body: the recorder says it after a grace period', async () => {
    const received: Buffer[] = [];
    const upstream = await upstreamWith((req: IncomingMessage, res: ServerResponse) => {
      req.on('data', (c: Buffer) => received.push(c));
      req.on('end', () => res.writeHead(204).end());
    });
    open.push(upstream);
    const out = join(tmp.path, 'silent.json');
    const recorder = await startMock({ mode: { kind: 'record', upstream: upstream.url, out } });
    const body = binaryBytes(3000, 4);
    const res = await send(recorder.url, {
      method: 'PUT',
      path: '/v2/files/F1/content',
      headers: { 'Content-Type': 'application/octet-stream' },
      body,
      expectContinue: true,
    });
    expect(res.status).toBe(204);
    expect(res.continued).toBe(true);
    expect(Buffer.concat(received).equals(body)).toBe(true);
    await recorder.close();
    const [e] = (await readJson(out)).exchanges;
    expect(Buffer.from(storedBase64(e!.request.body)!, 'base64').equals(body)).toBe(true);
    expect(e!.request.partialBody).toBeUndefined();
  });
});
