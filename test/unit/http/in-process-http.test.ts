import { describe, expect, it } from 'vitest';
import { InProcessHttp } from '../../../src/http/in-process-http.js';

const MIB = 1024 * 1024;

describe('InProcessHttp runs a listener over an in-memory connection', () => {
  it('reads a 32 MiB answer written in 64 KiB chunks whole, each byte in its place', async () => {
    const CHUNK = 64 * 1024;
    const http = new InProcessHttp((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      let sent = 0;
      const write = (): void => {
        while (sent < 32 * MIB) {
          const chunk = Buffer.alloc(CHUNK, (sent / CHUNK) & 0xff);
          sent += CHUNK;
          if (!res.write(chunk)) return void res.once('drain', write);
        }
        res.end();
      };
      write();
    });
    const answer = await http.dispatch({ method: 'GET', url: '/big', headers: {}, body: Buffer.alloc(0) });
    expect(answer.status).toBe(200);
    expect(answer.headers['transfer-encoding']).toBe('chunked');
    expect(answer.body.length).toBe(32 * MIB);
    expect(answer.body[CHUNK * 7]).toBe(7);
    expect(answer.body[CHUNK * 300 + 5]).toBe(300 & 0xff);
  });

  it('hands the request over as sent (method, path, headers, body) and keeps repeated answer headers in order', async () => {
    const http = new InProcessHttp((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        res.setHeader('Set-Cookie', ['a=1', 'b=2']);
        res.setHeader('Content-Type', 'application/json');
        res.end(
          JSON.stringify({
            method: req.method,
            url: req.url,
            host: req.headers.host,
            tag: req.headers['x-tag'],
            body: Buffer.concat(chunks).toString(),
          }),
        );
      });
    });
    const answer = await http.dispatch({
      method: 'PUT',
      url: '/v2/files/abc?n=1',
      headers: { 'X-Tag': 'one\r\ntwo', 'Content-Length': '999' },
      body: Buffer.from('hello'),
    });
    expect(answer.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(JSON.parse(answer.body.toString())).toEqual({
      method: 'PUT',
      url: '/v2/files/abc?n=1',
      host: 'in-process.invalid',
      tag: 'one  two',
      body: 'hello',
    });
  });

  it('a HEAD and a 204 have no body; a 100 Continue before the answer is skipped', async () => {
    const http = new InProcessHttp((req, res) => {
      if (req.method === 'HEAD') {
        res.writeHead(200, { 'Content-Length': '12' });
        return res.end();
      }
      res.writeContinue();
      res.writeHead(204);
      res.end();
    });
    const head = await http.dispatch({ method: 'HEAD', url: '/', headers: {}, body: Buffer.alloc(0) });
    expect([head.status, head.headers['content-length'], head.body.length]).toEqual([200, '12', 0]);
    const none = await http.dispatch({ method: 'DELETE', url: '/', headers: {}, body: Buffer.alloc(0) });
    expect([none.status, none.body.length]).toEqual([204, 0]);
  });

  it('a listener that drops the connection is an error, not a hang', async () => {
    const http = new InProcessHttp((req) => req.socket.destroy());
    await expect(http.dispatch({ method: 'GET', url: '/', headers: {}, body: Buffer.alloc(0) })).rejects.toThrow();
  });

  it('offers what a socket does: destroySoon sends the answer whole, resetAndDestroy fails with ECONNRESET', async () => {
    const http = new InProcessHttp((req, res) => {
      if (req.url === '/reset') return req.socket.resetAndDestroy();
      res.setHeader('Connection', 'close');
      res.end('bye', () => res.socket?.destroySoon());
      req.socket.setTimeout(0);
    });
    const closed = await http.dispatch({ method: 'GET', url: '/', headers: {}, body: Buffer.alloc(0) });
    expect(closed.body.toString()).toBe('bye');
    await expect(
      http.dispatch({ method: 'GET', url: '/reset', headers: {}, body: Buffer.alloc(0) }),
    ).rejects.toMatchObject({ code: 'ECONNRESET' });
  });
});
