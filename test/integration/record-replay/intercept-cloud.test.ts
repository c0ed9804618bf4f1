import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { interceptCloud, readRecording, type CloudInterception } from '../../../src/index.js';
import { SESSION_FILES } from '../../support/example-client/client-session.js';
import { binaryBytes, multipartBody, send } from '../../support/example-client/http-client.js';
import { EXAMPLE_RECORDING, basic } from './support.js';

const BASE = 'http://cloud.example.test';
const headers = { authorization: basic('demo', 'demo'), 'x-client-specification': '2' };

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
});
