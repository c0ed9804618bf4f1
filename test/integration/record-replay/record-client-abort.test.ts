// record: when the client gives up on an answer, the upstream request is aborted and the exchange is
// not recorded (its partial sidecar is removed), so an endless upstream cannot fill the disk.
import { createServer, get, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { readJson, useTempDir } from './support.js';

/** An upstream that answers GET /v2/endless with bytes that never end; resolves `closed` when a request's connection closes. */
async function endlessUpstream(): Promise<{ server: Server; url: string; closed: Promise<void> }> {
  let closedOnce!: () => void;
  const closed = new Promise<void>((resolve) => (closedOnce = resolve));
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const server = createServer((req, res) => {
    if (req.url !== '/v2/endless') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('small answer');
      return;
    }
    res.on('close', () => closedOnce());
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    const pump = (): void => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, closed };
}

/** GETs `url`, reads at least `bytes` of the answer, then aborts; resolves with how much it read. */
function readThenAbort(url: string, bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = get(url, (res: IncomingMessage) => {
      let read = 0;
      res.on('data', (c: Buffer) => {
        read += c.length;
        if (read >= bytes) {
          req.destroy();
          resolve(read);
        }
      });
    });
    req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
  });
}

describe('record stops downloading when the client gives up', () => {
  const tmp = useTempDir();
  let upstream: Server | undefined;
  let recorder: RunningMock | undefined;
  afterEach(async () => {
    await recorder?.close();
    recorder = undefined;
    upstream?.closeAllConnections();
    await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
    upstream = undefined;
  });

  it('a client that reads 1 MiB of an endless answer and aborts closes the upstream request; the exchange is skipped and its sidecar removed', async () => {
    const up = await endlessUpstream();
    upstream = up.server;
    const out = join(tmp.path, 'aborted.jsonl');
    const lines: string[] = [];
    recorder = await startMock({
      mode: { kind: 'record', upstream: up.url, out },
      log: (l) => lines.push(l),
    });
    expect(await readThenAbort(`${recorder.url}/v2/endless`, 1024 * 1024)).toBeGreaterThanOrEqual(1024 * 1024);
    // The upstream sees its request closed: the recorder stopped downloading.
    await up.closed;
    // The recorder still records what follows.
    const next = await fetch(`${recorder.url}/v2/small`);
    expect(await next.text()).toBe('small answer');
    await recorder.close();
    recorder = undefined;
    const doc = await readJson(out);
    expect(doc.exchanges.map((e) => e.request.path)).toEqual(['/v2/small']);
    expect(await readdir(join(tmp.path, 'aborted.bodies')).catch(() => [])).toEqual([]);
    expect(lines.join('\n')).toMatch(/exchange 1 \(GET \/v2\/endless\) not recorded: the client closed the connection/);
  });
});
