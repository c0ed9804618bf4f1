import { createServer, get, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, deflateSync, gunzipSync, gzipSync, inflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { readRecordingDocument, startMock, type RunningMock } from '../../../src/index.js';
import { ServeProcess, killServersAfterEach } from '../../helpers/cli.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const tmp = useTempDir('recorder-hardening');
killServersAfterEach();
let upstream: Server | undefined;
let mocks: RunningMock[] = [];
afterEach(async () => {
  for (const m of mocks) await m.close();
  mocks = [];
  await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
  upstream?.closeAllConnections();
  upstream = undefined;
});

async function startUpstream(
  handler: (req: IncomingMessage, res: import('node:http').ServerResponse, origin: string) => void,
): Promise<string> {
  upstream = createServer((req, res) => handler(req, res, origin));
  await new Promise<void>((resolve) => upstream!.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  return origin;
}

async function record(
  up: string,
  out: string,
  extra: Record<string, unknown> = {},
  log?: (line: string) => void,
): Promise<RunningMock> {
  const mock = await startMock({ mode: { kind: 'record', upstream: up, out, ...extra }, log });
  mocks.push(mock);
  return mock;
}

/** GET through node:http (fetch would decode the body itself): status, headers and raw bytes. */
function rawGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

const CODINGS = {
  gzip: { encode: gzipSync, decode: gunzipSync },
  deflate: { encode: deflateSync, decode: inflateSync },
  br: { encode: brotliCompressSync, decode: brotliDecompressSync },
} as const;

describe('the recorder: compressed answers, full disks, bounded memory (issue 10, findings 5 and 6)', () => {
  it.each(Object.keys(CODINGS) as Array<keyof typeof CODINGS>)(
    'a %s upstream: the client gets decodable bytes with our links, the recording the decoded, redacted XML',
    async (coding) => {
      const up = await startUpstream((req, res, origin) => {
        const xml = `<account-info xmlns:xlink="http://www.w3.org/1999/xlink"><self xlink:href="${origin}/v2/account"/><s3><authkey>AKIA-never-recorded</authkey></s3></account-info>`;
        const wants = String(req.headers['accept-encoding'] ?? '').includes(coding);
        res.writeHead(200, {
          'Content-Type': 'application/vnd.csp.account-info+xml',
          ...(wants && { 'Content-Encoding': coding }),
        });
        res.end(wants ? CODINGS[coding].encode(Buffer.from(xml)) : xml);
      });
      const out = join(tmp.path, `${coding}.json`);
      const recorder = await record(up, out);
      const res = await rawGet(`${recorder.url}/v2/account`, {
        'Accept-Encoding': coding,
        Authorization: 'Basic ZGVtbzpkZW1v',
      });
      expect(res.headers['content-encoding']).toBe(coding);
      const text = CODINGS[coding].decode(res.body).toString();
      expect(text).toContain(`xlink:href="${recorder.url}/v2/account"`);
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      await recorder.close();
      mocks = [];
      const [e] = (await readRecordingDocument(out)).exchanges;
      expect(e!.response.headers['content-encoding']).toBeUndefined();
      expect(e!.response.body).toEqual({
        text: expect.stringContaining('<self xlink:href="{{baseUrl}}/v2/account"/>'),
      });
      expect(JSON.stringify(e)).toContain('<authkey>[redacted]</authkey>');
      expect(await readFile(out, 'utf8')).not.toContain('AKIA-never-recorded');
      // Replayed: plain XML (no Content-Encoding), decodable by any client, with the replayer's links.
      const replay = await startMock({ mode: { kind: 'replay', recording: out } });
      mocks.push(replay);
      const again = await rawGet(`${replay.url}/v2/account`, {
        'Accept-Encoding': coding,
        Authorization: 'Basic ZGVtbzpkZW1v',
      });
      expect(again.headers['content-encoding']).toBeUndefined();
      expect(again.body.toString()).toContain(`xlink:href="${replay.url}/v2/account"`);
    },
  );

  it('a binary gzip download is passed through untouched and replays byte for byte', async () => {
    const gz = gzipSync(Buffer.from('not a link-bearing body'.repeat(100)));
    const up = await startUpstream((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Encoding': 'gzip' });
      res.end(gz);
    });
    const out = join(tmp.path, 'binary.json');
    const recorder = await record(up, out);
    const res = await rawGet(`${recorder.url}/v2/files/x/content`, { 'Accept-Encoding': 'gzip' });
    expect(res.body.equals(gz)).toBe(true);
    await recorder.close();
    mocks = [];
    const replay = await startMock({ mode: { kind: 'replay', recording: out } });
    mocks.push(replay);
    const again = await rawGet(`${replay.url}/v2/files/x/content`, { 'Accept-Encoding': 'gzip' });
    expect(again.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(again.body).toString()).toBe('not a link-bearing body'.repeat(100));
  });

  it('a full disk during a sidecar write stops the recording with a clear message; the 3 MB download still completes', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 5);
    const up = await startUpstream((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': big.length });
      res.end(big);
    });
    const out = join(tmp.path, 'full.json');
    await writeFile(
      out,
      `${JSON.stringify({ format: 'csp-mock-recording', version: 2, baseUrl: '{{baseUrl}}', redacted: [] })}\n`,
    );
    // Exchange 1's response sidecar lands on /dev/full: every write fails with ENOSPC, as on a full disk.
    await mkdir(join(tmp.path, 'full.bodies'));
    await symlink('/dev/full', join(tmp.path, 'full.bodies', '1-response.bin'));
    const lines: string[] = [];
    const recorder = await record(up, out, { append: true }, (line) => lines.push(line));
    const res = await rawGet(`${recorder.url}/v2/files/big/content`);
    expect(res.body.length).toBe(big.length);
    expect(res.body.equals(big)).toBe(true);
    await recorder.close();
    mocks = [];
    expect(lines.join('\n')).toMatch(
      /recording stopped: exchange 1 \(GET \/v2\/files\/big\/content\): .*no space left on device \(ENOSPC\)/,
    );
    expect((await readRecordingDocument(out)).exchanges).toEqual([]);
  });

  it('a full disk while appending an exchange stops the recording; clients keep getting answers', async () => {
    const up = await startUpstream((_req, res) => res.end('ok'));
    const out = join(tmp.path, 'full-line.json');
    const lines: string[] = [];
    const recorder = await record(up, out, {}, (line) => lines.push(line));
    expect((await rawGet(`${recorder.url}/v2/one`)).body.toString()).toBe('ok');
    await mocks[0]!.close().catch(() => undefined);
    // From here on the recording file is a full disk.
    const second = await record(up, out, { append: true }, (line) => lines.push(line));
    await rm(out);
    await symlink('/dev/full', out);
    expect((await rawGet(`${second.url}/v2/two`)).body.toString()).toBe('ok');
    expect((await rawGet(`${second.url}/v2/three`)).body.toString()).toBe('ok');
    await second.close();
    mocks = [];
    expect(lines.filter((l) => l.includes('recording stopped'))).toEqual([
      expect.stringContaining('no space left on device (ENOSPC)'),
    ]);
  });

  it('records 400 downloads of 40 KB with bounded memory, and each exchange costs the same bytes to write', async () => {
    const body = Buffer.alloc(40 * 1024, 'r');
    const up = await startUpstream((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      res.end(body);
    });
    const out = join(tmp.path, 'long.json');
    const recorder = await new ServeProcess(['record', '--upstream', up, '--out', out, '--port', '0']).ready();
    const status = async (): Promise<{ rss: number; written: number }> => {
      const proc = await readFile(`/proc/${recorder.pid}/status`, 'utf8');
      const io = await readFile(`/proc/${recorder.pid}/io`, 'utf8');
      return { rss: Number(/VmRSS:\s+(\d+)/.exec(proc)![1]) * 1024, written: Number(/wchar:\s+(\d+)/.exec(io)![1]) };
    };
    const download = async (i: number): Promise<void> => {
      const res = await fetch(`${recorder.url}/v2/files/f${i}/content`);
      expect((await res.arrayBuffer()).byteLength).toBe(body.length);
    };
    for (let i = 0; i < 100; i++) await download(i);
    const at100 = await status();
    for (let i = 100; i < 400; i++) await download(i);
    const at400 = await status();
    // Rewriting the whole document per exchange wrote ~4 GB by exchange 400 and held 3 GB; appending writes each once.
    const perExchangeFirst = at100.written / 100;
    const perExchangeLater = (at400.written - at100.written) / 300;
    expect(perExchangeLater).toBeLessThan(perExchangeFirst * 1.5);
    expect(at400.rss - at100.rss).toBeLessThan(64 * 1024 * 1024);
    await recorder.stop();
    const doc = await readRecordingDocument(out);
    expect(doc.exchanges).toHaveLength(400);
    expect(doc.exchanges.every((e) => e.response.status === 200)).toBe(true);
  }, 120_000);
});
