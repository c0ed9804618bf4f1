// replay --on-miss proxy streams a large upstream answer to the client and into a sidecar file, like
// record does; the recording keeps a reference, not the bytes, and the next replay serves it.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { readJson, storedSidecar, useTempDir } from './support.js';

const MIB = 1024 * 1024;
const TOTAL = 40 * MIB;
const CHUNK = Buffer.alloc(MIB);
for (let i = 0; i < CHUNK.length; i++) CHUNK[i] = (i * 131) & 255;

/** The sha256 of TOTAL bytes of CHUNK repeated, as the upstream sends them. */
function expectedSha(): string {
  const hash = createHash('sha256');
  for (let sent = 0; sent < TOTAL; sent += MIB) hash.update(CHUNK);
  return hash.digest('hex');
}

async function sha256Of(res: Response): Promise<{ sha: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha: hash.digest('hex'), bytes };
}

describe('replay --on-miss proxy streams large answers into sidecars', () => {
  const tmp = useTempDir();
  let upstream: Server | undefined;
  const open: RunningMock[] = [];
  afterEach(async () => {
    while (open.length) await open.pop()!.close();
    await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
    upstream = undefined;
  });

  it('a 40 MiB proxied answer reaches the client whole, is stored as a sidecar reference (not inline base64), and the next replay serves it', async () => {
    upstream = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      let sent = 0;
      const pump = (): void => {
        while (sent < TOTAL) {
          sent += MIB;
          if (!res.write(CHUNK)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    await new Promise<void>((resolve) => upstream!.listen(0, '127.0.0.1', resolve));
    const up = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const file = join(tmp.path, 'misses.jsonl');
    await writeFile(
      file,
      `${JSON.stringify({ format: 'csp-mock-recording', version: 2, baseUrl: '{{baseUrl}}', redacted: [] })}\n`,
    );
    const want = expectedSha();

    const proxying = await startMock({ mode: { kind: 'replay', recording: file, onMiss: 'proxy', upstream: up } });
    open.push(proxying);
    const first = await fetch(`${proxying.url}/v2/files/big/content`);
    expect(first.status).toBe(200);
    expect(await sha256Of(first)).toEqual({ sha: want, bytes: TOTAL });
    await open.pop()!.close();

    // By design: the recording line names a sidecar; the file itself stays small.
    const doc = await readJson(file);
    expect(doc.exchanges).toHaveLength(1);
    const ref = storedSidecar(doc.exchanges[0]!.response.body);
    expect(ref).toMatchObject({ file: '1-response.bin', bytes: TOTAL });
    expect((await stat(file)).size).toBeLessThan(64 * 1024);
    expect((await stat(join(tmp.path, 'misses.bodies', '1-response.bin'))).size).toBe(TOTAL);

    const replaying = await startMock({ mode: { kind: 'replay', recording: file } });
    open.push(replaying);
    const again = await fetch(`${replaying.url}/v2/files/big/content`);
    expect(again.status).toBe(200);
    expect(again.headers.get('content-length')).toBe(String(TOTAL));
    expect(await sha256Of(again)).toEqual({ sha: want, bytes: TOTAL });
  });
});
