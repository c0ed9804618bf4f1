import { createHash } from 'node:crypto';
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { interceptCloud, readRecording, type CloudInterception } from '../../../src/index.js';
import { SESSION_FILES } from '../../support/example-client/client-session.js';
import { binaryBytes, multipartBody, send } from '../../support/example-client/http-client.js';
import { EXAMPLE_RECORDING, basic } from './support.js';

const BASE = 'http://cloud.example.test';
const SECURE_BASE = 'https://cloud.example.test';
const headers = { authorization: basic('demo', 'demo'), 'x-client-specification': '2' };

type Client = 'fetch' | 'http' | 'https';
const CLIENTS: Client[] = ['fetch', 'http', 'https'];

/** One request with the client named, the body in `chunks` writes (no Content-Length: chunked) or one. */
async function request(
  client: Client,
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: Buffer; chunks?: number },
): Promise<{ status: number; body: Buffer }> {
  if (client === 'fetch') {
    const res = await fetch(url, {
      method: init.method,
      headers: init.headers,
      body: init.body ? new Uint8Array(init.body) : undefined,
    });
    return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
  }
  // The module is read at the call, as http.request(...) reads it: a named or namespace import of a
  // builtin is bound when imported, before any interceptor is in place.
  const module = client === 'https' ? await import('node:https') : await import('node:http');
  return new Promise((resolve, reject) => {
    const req = module.request(url, { method: init.method, headers: init.headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    const body = init.body ?? Buffer.alloc(0);
    const step = Math.ceil(body.length / (init.chunks ?? 1)) || 1;
    for (let at = 0; at < body.length; at += step) req.write(body.subarray(at, at + step));
    req.end();
  });
}

/** The base URL a client of that kind talks to. */
const baseFor = (client: Client): string => (client === 'https' ? SECURE_BASE : BASE);

describe('interceptCloud: a Node client served in-process through nock, no port, no network', () => {
  let cloud: CloudInterception | undefined;
  beforeEach(() => {
    nock.disableNetConnect(); // anything that is not intercepted fails
  });
  afterEach(async () => {
    await cloud?.restore();
    cloud = undefined;
    nock.cleanAll();
    nock.enableNetConnect();
  });

  it('serves fetch and node:http clients from the emulator, with links naming the base URL', async () => {
    cloud = await interceptCloud(BASE);
    const entry = await fetch(`${BASE}/v2`, { headers });
    expect(entry.status).toBe(200);
    const text = await entry.text();
    expect(text.startsWith('<cloud')).toBe(true);
    const rootHref = /rootContainer xlink:href="([^"]+)"/.exec(text)![1]!;
    expect(rootHref.startsWith(`${BASE}/v2/containers/`)).toBe(true);

    // A binary multipart upload with node:http, then a download with fetch: same bytes, same store.
    const bytes = binaryBytes(3000, 5);
    const created = await send(BASE, {
      method: 'POST',
      path: `${new URL(rootHref).pathname}/contents`,
      headers: { Authorization: headers.authorization, 'Content-Type': 'multipart/form-data; boundary=xyz' },
      body: multipartBody('file', 'blob.bin', 'application/octet-stream', bytes, 'xyz'),
    });
    expect(created.status).toBe(201);
    const fileHref = created.body.toString().trim();
    expect(fileHref.startsWith(`${BASE}/v2/files/`)).toBe(true);
    const download = await fetch(`${fileHref}/content`, { headers });
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    const stored = cloud.mock.store.resolvePath('demo', ['blob.bin']);
    expect(stored?.bytes).toBe(bytes.length);

    // PUT of raw binary content through fetch.
    const replaced = binaryBytes(700, 9);
    const put = await fetch(`${fileHref}/content`, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(replaced),
    });
    expect(put.status).toBe(204);
    const again = await fetch(`${fileHref}/content`, { headers });
    expect(Buffer.from(await again.arrayBuffer()).equals(replaced)).toBe(true);
  });

  it('stops serving after restore: the client then hits the (disabled) network', async () => {
    cloud = await interceptCloud(BASE);
    expect((await fetch(`${BASE}/v2`, { headers })).status).toBe(200);
    await cloud.restore();
    cloud = undefined;
    await expect(fetch(`${BASE}/v2`, { headers })).rejects.toThrow();
  });

  it('serves a recording in-process (mode replay): recorded bytes and ordered repeats', async () => {
    const recording = await readRecording(EXAMPLE_RECORDING);
    cloud = await interceptCloud(BASE, { mode: { kind: 'replay', recording } });
    const entry = await fetch(`${BASE}/v2`, { headers });
    expect(await entry.text()).toContain(`${BASE}/v2/containers/`);
    const logo = recording.exchanges.find(
      (e) => e.request.path.endsWith('/content') && e.response.body.length === SESSION_FILES.logo.length,
    )!;
    const body = Buffer.from(await (await fetch(`${BASE}${logo.request.path}`, { headers })).arrayBuffer());
    expect(body.equals(SESSION_FILES.logo)).toBe(true);
    const notes = recording.exchanges.find(
      (e) => e.request.method === 'GET' && /^\/v2\/files\/[^/]+$/.test(e.request.path),
    )!.request.path;
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${BASE}${notes}`, { headers })).status);
    expect(statuses).toEqual([200, 404, 404]);
    await cloud.reset();
    expect((await fetch(`${BASE}${notes}`, { headers })).status).toBe(200);
  });

  for (const client of CLIENTS) {
    it(`a text body made only of hex digits (an MD5, "cafe") is stored as the text the client sent, through ${client}`, async () => {
      cloud = await interceptCloud(baseFor(client));
      const md5 = createHash('md5').update('some file').digest('hex');
      for (const [name, text] of [
        ['md5.txt', md5],
        ['cafe.txt', 'cafe'],
        ['upper.txt', 'CAFE'],
        ['digits.txt', '0123456789abcdef'],
      ] as const) {
        const put = await request(client, `${baseFor(client)}/dav/Documents/${name}`, {
          method: 'PUT',
          headers: { authorization: headers.authorization, 'content-type': 'text/plain' },
          body: Buffer.from(text),
        });
        expect(put.status).toBe(201);
        expect(cloud.mock.store.resolvePath('demo', ['Documents', name])?.bytes).toBe(text.length);
        const got = await request(client, `${baseFor(client)}/dav/Documents/${name}`, {
          method: 'GET',
          headers: { authorization: headers.authorization },
        });
        expect(got.body.toString()).toBe(text);
      }
    });

    it(`a binary body, sent whole and in chunks, arrives byte for byte through ${client}`, async () => {
      cloud = await interceptCloud(baseFor(client));
      // Bytes that are not UTF-8, and bytes that are (all below 0x80), and an empty body.
      const bodies = [binaryBytes(5000, 11), Buffer.from([0x00, 0x01, 0x7f, 0x10, 0x20]), Buffer.alloc(0)];
      for (const [i, bytes] of bodies.entries()) {
        for (const chunks of client === 'fetch' ? [1] : [1, 4]) {
          const path = `/dav/Documents/blob-${i}-${chunks}.bin`;
          const put = await request(client, `${baseFor(client)}${path}`, {
            method: 'PUT',
            headers: { authorization: headers.authorization, 'content-type': 'application/octet-stream' },
            body: bytes,
            chunks,
          });
          expect(put.status).toBe(201);
          const got = await request(client, `${baseFor(client)}${path}`, {
            method: 'GET',
            headers: { authorization: headers.authorization },
          });
          expect(got.body.equals(bytes)).toBe(true);
        }
      }
    });
  }

  it('leaves nock working: its own interceptors answer beside interceptCloud, and after restore', async () => {
    const other = nock('http://other.example.test').persist().get('/ping').reply(200, 'pong');
    cloud = await interceptCloud(BASE);
    expect(await (await fetch('http://other.example.test/ping')).text()).toBe('pong');
    expect((await fetch(`${BASE}/v2`, { headers })).status).toBe(200);
    await cloud.restore();
    cloud = undefined;
    expect(await (await fetch('http://other.example.test/ping')).text()).toBe('pong');
    expect((await request('http', 'http://other.example.test/ping', { method: 'GET' })).body.toString()).toBe('pong');
    other.persist(false);
    nock.cleanAll();
  });

  it('two interceptions at once each answer their own base URL; ending one leaves the other serving', async () => {
    cloud = await interceptCloud(BASE);
    const second = await interceptCloud('http://second.example.test/api');
    try {
      expect((await fetch('http://second.example.test/api/v2', { headers })).status).toBe(200);
      await cloud.restore();
      cloud = undefined;
      expect(await (await fetch('http://second.example.test/api/v2', { headers })).text()).toContain(
        'http://second.example.test/api/v2/containers/',
      );
    } finally {
      await second.restore();
    }
  });

  it('with nock switched off (nock.restore()), interceptCloud still serves, and nock activates again afterwards', async () => {
    nock.restore();
    try {
      cloud = await interceptCloud(BASE);
      expect((await fetch(`${BASE}/v2`, { headers })).status).toBe(200);
      await cloud.restore();
      cloud = undefined;
    } finally {
      nock.activate();
    }
    nock('http://other.example.test').get('/ping').reply(200, 'pong');
    expect(await (await fetch('http://other.example.test/ping')).text()).toBe('pong');
  });
});
