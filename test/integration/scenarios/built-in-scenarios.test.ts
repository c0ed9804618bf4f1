import { describe, expect, it } from 'vitest';
import { BASIC, exchange, parseResponse, rawGet, timed, useRunningMock } from './wire-client.js';

const HEADERS = { Authorization: BASIC, 'X-Client-Specification': '2' };

async function json<T>(url: string): Promise<T> {
  return (await (await fetch(url)).json()) as T;
}
async function rootId(url: string): Promise<string> {
  return (await json<{ users: { demo: { rootId: string } } }>(`${url}/__admin/state`)).users.demo.rootId;
}
async function readmeId(url: string): Promise<string> {
  const state = await json<{
    users: { demo: { tree: { container?: string; children?: { file?: string; id: string }[] }[] } };
  }>(`${url}/__admin/state`);
  return state.users.demo.tree.find((n) => n.container === 'Documents')!.children!.find((n) => n.file === 'readme.txt')!
    .id;
}
function post(url: string, contentType: string, body: Uint8Array<ArrayBuffer> | string): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { ...HEADERS, 'Content-Type': contentType }, body });
}
/** One multipart upload; 'reset' when the connection was reset instead of answered. */
async function upload(url: string, parent: string, name: string): Promise<number | 'reset'> {
  const form = new FormData();
  form.append('file', new Blob(['payload']), name);
  try {
    const res = await fetch(`${url}/v2/containers/${parent}/contents`, {
      method: 'POST',
      headers: HEADERS,
      body: form,
    });
    await res.arrayBuffer();
    return res.status;
  } catch (err) {
    const code = ((err as Error).cause as NodeJS.ErrnoException | undefined)?.code;
    return code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' ? 'reset' : Promise.reject(err);
  }
}

describe('built-in scenarios', () => {
  const running = useRunningMock(() => ({}));

  it('default: tag objects work, a text/plain POST gets 415, a binary body under an XML type gets 500 and a closed socket', async () => {
    const mock = await running.start({ scenario: 'default' });
    const objects = await fetch(`${mock.url}/v2/tags/important/objects`, { headers: HEADERS });
    expect(objects.status).toBe(200);
    expect(await objects.text()).toContain('<file-list');
    const root = await rootId(mock.url);
    const refused = await post(`${mock.url}/v2/containers/${root}/contents`, 'text/plain', 'hello');
    expect(refused.status).toBe(415);
    expect(refused.headers.get('content-type')).toBe('text/plain; charset=UTF-8');

    const binary = Buffer.alloc(4096, 0xff);
    const head =
      `POST /v2/containers/${root}/contents HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${BASIC}\r\n` +
      `X-Client-Specification: 2\r\nContent-Type: application/vnd.csp.file-info+xml\r\nContent-Length: 4096\r\n\r\n`;
    const result = await exchange(mock.port, Buffer.concat([Buffer.from(head), binary]));
    const res = parseResponse(result.bytes);
    expect(res.status).toBe(500);
    expect(res.headers['connection']).toBe('close');
    expect(result.ended).toBe('end');
  });

  it('tag-objects-500: GET /v2/tags/<name>/objects answers 500 text/plain, Connection: close, Cache-Control: no-cache, and closes', async () => {
    const mock = await running.start({ scenario: 'tag-objects-500' });
    // A second request pipelined on the same keep-alive socket is never answered.
    const result = await exchange(mock.port, rawGet('/v2/tags/important/objects') + rawGet('/v2'));
    expect(result.ended).toBe('end');
    const res = parseResponse(result.bytes);
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(res.headers['connection']).toBe('close');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(result.bytes.toString('latin1').match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect((await fetch(`${mock.url}/v2/tags/important`, { headers: HEADERS })).status).toBe(200);
    expect((await mock.requests())[0]).toMatchObject({
      path: '/v2/tags/important/objects',
      status: 500,
      fault: 'tag-objects-500',
      outcome: 'closed',
    });
  });

  it('observed: the tag objects 500 together with the 415 the service always answers', async () => {
    const mock = await running.start({ scenario: 'observed' });
    expect((await fetch(`${mock.url}/v2/tags/holiday/objects`, { headers: HEADERS })).status).toBe(500);
    const root = await rootId(mock.url);
    expect((await post(`${mock.url}/v2/containers/${root}/contents`, 'binary', 'x')).status).toBe(415);
  });

  it('empty: the demo user logs in to an empty root container', async () => {
    const mock = await running.start({ scenario: 'empty' });
    const listing = await fetch(`${mock.url}/v2/containers/${await rootId(mock.url)}/contents`, { headers: HEADERS });
    expect(await listing.text()).toContain('total="0"');
  });

  it('slow-network: every request waits at least 250 ms, a download 1 s more', async () => {
    const mock = await running.start({ scenario: 'slow-network' });
    const entry = await timed(() => fetch(`${mock.url}/v2`, { headers: HEADERS }));
    expect(entry.value.status).toBe(200);
    expect(entry.ms).toBeGreaterThanOrEqual(245);
    const id = await readmeId(mock.url);
    const download = await timed(async () =>
      (await fetch(`${mock.url}/v2/files/${id}/content`, { headers: HEADERS })).text(),
    );
    expect(download.value).toContain('Welcome, demo');
    expect(download.ms).toBeGreaterThanOrEqual(1245);
  });

  it('flaky-uploads: some uploads fail (reset, 503, 500) and the same sequence repeats on a fresh mock', async () => {
    const run = async (): Promise<(number | 'reset')[]> => {
      const mock = await running.start({ scenario: 'flaky-uploads' });
      const root = await rootId(mock.url);
      const outcomes: (number | 'reset')[] = [];
      for (let i = 0; i < 20; i++) outcomes.push(await upload(mock.url, root, `f${i}.txt`));
      await mock.close();
      return outcomes;
    };
    const first = await run();
    const second = await run();
    expect(second).toEqual(first);
    expect(first).toContain(201);
    expect(first).toContain('reset');
    expect(first).toContain(503);
    for (const o of first) expect([201, 503, 'reset']).toContain(o);
  });

  it('quota-exceeded: uploads and content writes answer 507; reads and container creation still work', async () => {
    const mock = await running.start({ scenario: 'quota-exceeded' });
    const root = await rootId(mock.url);
    expect(await upload(mock.url, root, 'big.bin')).toBe(507);
    const id = await readmeId(mock.url);
    const put = await fetch(`${mock.url}/v2/files/${id}/content`, { method: 'PUT', headers: HEADERS, body: 'new' });
    expect(put.status).toBe(507);
    expect(await put.text()).toContain('quota');
    const davPut = await fetch(`${mock.url}/dav/new.txt`, { method: 'PUT', headers: HEADERS, body: 'new' });
    expect(davPut.status).toBe(507);
    const created = await post(
      `${mock.url}/v2/containers/${root}/contents`,
      'application/vnd.csp.container-info+xml',
      '<container><name>ok</name></container>',
    );
    expect(created.status).toBe(201);
    expect((await fetch(`${mock.url}/v2/files/${id}/content`, { headers: HEADERS })).status).toBe(200);
  });

  it('expired-credentials: valid credentials get 401 with a Basic challenge on REST and WebDAV; the admin API still answers', async () => {
    const mock = await running.start({ scenario: 'expired-credentials' });
    for (const path of ['/v2', '/v2/tags', '/dav/Documents/readme.txt']) {
      const res = await fetch(`${mock.url}${path}`, { headers: HEADERS });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
    }
    expect((await fetch(`${mock.url}/__admin/scenario`)).status).toBe(200);
  });
});
