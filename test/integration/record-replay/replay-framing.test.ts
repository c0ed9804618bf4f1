import { writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { useTempDir } from './support.js';

const BODY = 'a replayed answer of exactly forty-nine bytes....';

/** Everything the server sends on one connection for one request (the client asks it to close). */
function rawExchange(url: string, path: string): Promise<Buffer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => resolve(Buffer.concat(chunks)));
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`);
  });
}

describe('replay sends no framing or hop-by-hop header from a recording', () => {
  const tmp = useTempDir();
  let replay: RunningMock | undefined;
  afterEach(async () => {
    await replay?.close();
    replay = undefined;
  });

  it('a recorded Content-Length: 3 or transfer-encoding: chunked (any case) never goes out: the wire carries exactly one answer', async () => {
    expect(BODY.length).toBe(49);
    const file = join(tmp.path, 'hostile.jsonl');
    const header = { format: 'csp-mock-recording', version: 2, baseUrl: '{{baseUrl}}', redacted: [] };
    const exchange = {
      id: 1,
      request: { method: 'GET', path: '/v2/split', query: [], headers: {} },
      response: {
        status: 200,
        headers: {
          'Content-Length': '3',
          'content-LENGTH': '3',
          'Transfer-Encoding': 'chunked',
          Connection: 'keep-alive, Upgrade',
          'Keep-Alive': 'timeout=600',
          Upgrade: 'h2c',
          TE: 'trailers',
          Trailer: 'X-Smuggled',
          'Proxy-Connection': 'keep-alive',
          'Proxy-Authenticate': 'Basic realm="x"',
          'Proxy-Anything': 'x',
          'content-type': 'text/plain',
          'X-Kept': 'yes',
        },
        body: { text: BODY },
      },
    };
    await writeFile(file, `${JSON.stringify(header)}\n${JSON.stringify(exchange)}\n`);
    replay = await startMock({ mode: { kind: 'replay', recording: file } });

    const wire = (await rawExchange(replay.url, '/v2/split')).toString('latin1');
    const end = wire.indexOf('\r\n\r\n');
    expect(end).toBeGreaterThan(0);
    const [statusLine, ...lines] = wire.slice(0, end).split('\r\n');
    expect(statusLine).toBe('HTTP/1.1 200 OK');
    const names = lines.map((l) => l.slice(0, l.indexOf(':')).toLowerCase());
    const value = (n: string): string[] =>
      lines.filter((l) => l.toLowerCase().startsWith(`${n}:`)).map((l) => l.slice(n.length + 1).trim());
    expect(value('content-length')).toEqual(['49']);
    for (const dropped of ['transfer-encoding', 'keep-alive', 'upgrade', 'te', 'trailer'])
      expect(names, dropped).not.toContain(dropped);
    expect(names.filter((n) => n.startsWith('proxy-'))).toEqual([]);
    // Node's own Connection header only: the client asked to close.
    expect(value('connection')).toEqual(['close']);
    expect(value('x-kept')).toEqual(['yes']);
    // Exactly one answer: the body is the 49 bytes and nothing follows it.
    expect(wire.slice(end + 4)).toBe(BODY);
  });

  it('a recorded Connection: close is the one connection header replay keeps, as behaviour', async () => {
    const file = join(tmp.path, 'closing.jsonl');
    const header = { format: 'csp-mock-recording', version: 2, baseUrl: '{{baseUrl}}', redacted: [] };
    const exchange = {
      id: 1,
      request: { method: 'GET', path: '/v2/closing', query: [], headers: {} },
      response: { status: 500, headers: { CONNECTION: 'Close', 'content-type': 'text/plain' }, body: { text: 'x' } },
    };
    await writeFile(file, `${JSON.stringify(header)}\n${JSON.stringify(exchange)}\n`);
    replay = await startMock({ mode: { kind: 'replay', recording: file } });
    const res = await fetch(`${replay.url}/v2/closing`);
    expect(res.status).toBe(500);
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.text()).toBe('x');
  });
});
