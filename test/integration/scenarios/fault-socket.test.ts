import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { BASIC, exchange, parseResponse, rawGet, useRunningMock } from './wire-client.js';

const TEXT = 'abcdefghijklmnopqrstuvwxyz'.repeat(40); // 1040 bytes
const seededFile = { seed: { tree: [{ file: 'big.txt', text: TEXT }] } };

/** The id of big.txt, from the admin state view. */
async function bigFileId(url: string): Promise<string> {
  const state = (await (await fetch(`${url}/__admin/state`)).json()) as { users: { demo: { tree: { id: string }[] } } };
  return state.users.demo.tree[0]!.id;
}

describe('socket faults on the wire (connection "reset", truncateAfterBytes)', () => {
  const running = useRunningMock(() => ({}));

  it('connection "reset" destroys the socket with a TCP reset and no response byte', async () => {
    const mock = await running.start({
      scenario: { faults: [{ match: { method: 'GET', path: '/v2/containers/*/contents' }, connection: 'reset' }] },
    });
    const result = await exchange(mock.port, rawGet('/v2/containers/anything/contents'));
    expect(result.bytes.length).toBe(0);
    expect(result.ended).toBe('reset');
    expect(result.errorCode).toBe('ECONNRESET');
  });

  it('connection "reset" makes an http client fail with ECONNRESET, and the server keeps serving', async () => {
    const mock = await running.start({
      scenario: { faults: [{ match: { method: 'POST', path: '/v2/**' }, connection: 'reset' }] },
    });
    const error = await new Promise<NodeJS.ErrnoException>((resolve, reject) => {
      const req = httpRequest(
        `${mock.url}/v2/containers/x/contents`,
        { method: 'POST', headers: { Authorization: BASIC } },
        () => reject(new Error('got a response')),
      );
      req.on('error', resolve);
      req.end('<container><name>a</name></container>');
    });
    expect(error.code).toBe('ECONNRESET');
    const after = await fetch(`${mock.url}/v2`, { headers: { Authorization: BASIC } });
    expect(after.status).toBe(200);
  });

  it('truncateAfterBytes sends the real headers (full Content-Length) and exactly N body bytes, then closes', async () => {
    const mock = await running.start({
      scenario: {
        ...seededFile,
        faults: [{ match: { method: 'GET', path: '/v2/files/*/content' }, truncateAfterBytes: 100 }],
      },
    });
    const id = await bigFileId(mock.url);
    const result = await exchange(mock.port, rawGet(`/v2/files/${id}/content`));
    expect(result.ended).toBe('end');
    const res = parseResponse(result.bytes);
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe(String(TEXT.length));
    expect(res.body.toString()).toBe(TEXT.slice(0, 100));
  });

  it('truncateAfterBytes 0 sends the headers only; an http client sees the body end early', async () => {
    const mock = await running.start({
      scenario: {
        ...seededFile,
        faults: [{ match: { method: 'GET', path: '/v2/files/*/content' }, truncateAfterBytes: 0 }],
      },
    });
    const id = await bigFileId(mock.url);
    const outcome = await new Promise<{ status: number; received: number; aborted: boolean }>((resolve, reject) => {
      const req = httpRequest(`${mock.url}/v2/files/${id}/content`, { headers: { Authorization: BASIC } }, (res) => {
        let received = 0;
        res.on('data', (c: Buffer) => (received += c.length));
        res.on('error', () => undefined);
        res.on('close', () => resolve({ status: res.statusCode!, received, aborted: !res.complete }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(outcome).toEqual({ status: 200, received: 0, aborted: true });
  });

  it('truncateAfterBytes cuts an XML entity sent in one piece', async () => {
    const mock = await running.start({
      scenario: { faults: [{ match: { method: 'GET', path: '/v2' }, truncateAfterBytes: 6 }] },
    });
    const result = await exchange(mock.port, rawGet('/v2'));
    const res = parseResponse(result.bytes);
    expect(res.body.toString()).toBe('<cloud');
    expect(Number(res.headers['content-length'])).toBeGreaterThan(6);
    expect(result.ended).toBe('end');
  });

  it('truncateAfterBytes beyond the body sends it whole, then closes the connection', async () => {
    const mock = await running.start({
      scenario: {
        ...seededFile,
        faults: [{ match: { method: 'GET', path: '/v2/files/*/content' }, truncateAfterBytes: 5000 }],
      },
    });
    const id = await bigFileId(mock.url);
    const result = await exchange(mock.port, rawGet(`/v2/files/${id}/content`));
    expect(result.ended).toBe('end');
    expect(parseResponse(result.bytes).body.toString()).toBe(TEXT);
  });
});
