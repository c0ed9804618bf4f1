import { get } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';

const HEADERS = {
  Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}`,
  'X-Client-Specification': '2',
};

/** What a client sees of an answer, minus the Date. */
async function answer(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers: { ...HEADERS, ...headers } });
  const { date: _date, ...rest } = Object.fromEntries(res.headers);
  return { status: res.status, headers: rest, body: await res.text() };
}

describe('the reads clients send most: a file entity, a listing, content from memory', () => {
  let mock: RunningMock;
  afterEach(async () => mock?.close());

  it('a file entity and a listing (depth 0 and 1): same status, headers and bytes, both journaled with the user', async () => {
    mock = await startMock({ seed: 'empty' });
    const root = mock.store.root('demo');
    const file = await mock.store.createFile(
      'demo',
      root.id,
      { name: 'a.txt', mimeType: 'text/plain' },
      Buffer.from('a'),
    );
    await mock.store.createContainer('demo', root.id, 'folder');
    for (const [path, extra] of [
      [`/v2/files/${file.id}`, {}],
      [`/v2/containers/${root.id}/contents`, {}],
      [`/v2/containers/${root.id}/contents`, { 'X-Cloud-Depth': '1' }],
    ] as const) {
      const plain = await answer(`${mock.url}${path}`, extra);
      // A query parameter the route ignores changes nothing.
      const queried = await answer(`${mock.url}${path}?n=1`, extra);
      expect(plain.status).toBe(200);
      expect(plain.headers['etag']).toMatch(/^"/);
      expect(queried).toEqual(plain);
    }
    const journal = mock.requests();
    expect(journal).toHaveLength(6);
    for (const entry of journal) {
      expect(entry).toMatchObject({
        method: 'GET',
        status: 200,
        user: 'demo',
        outcome: 'answered',
        scenario: 'default',
      });
      expect(entry.headers['authorization']).toBe('[removed]');
    }
  });

  it('content in memory (held small, or in the blob cache), by /v2 and by /dav: the same headers and bytes as a read from disk', async () => {
    mock = await startMock({ seed: 'empty' });
    const root = mock.store.root('demo');
    const large = Buffer.from('content served from memory\n'.repeat(4000)); // above memory mode's held size
    const small = Buffer.from('small\n');
    const big = await mock.store.createFile('demo', root.id, { name: 'c d.txt', mimeType: 'text/plain' }, large);
    const tiny = await mock.store.createFile('demo', root.id, { name: 'tiny.txt' }, small);
    const cases = [
      { bytes: large, urls: ['/dav/c%20d.txt', `/v2/files/${big.id}/content`] },
      { bytes: small, urls: ['/dav/tiny.txt', `/v2/files/${tiny.id}/content`] },
    ];
    // The first GET of the large file reads it from disk and fills the cache; the next ones are hits.
    const fromDisk = await answer(`${mock.url}${cases[0]!.urls[0]}`);
    expect(mock.store.blobs.cache.size).toBe(1);
    for (const { bytes, urls } of cases) {
      for (const path of urls) {
        const hit = await answer(`${mock.url}${path}`);
        const queried = await answer(`${mock.url}${path}?n=1`);
        expect(hit.status).toBe(200);
        expect(hit.body).toBe(bytes.toString());
        expect(queried).toEqual(hit);
        for (const name of ['etag', 'last-modified', 'content-type', 'accept-ranges', 'content-length'])
          expect(hit.headers[name], name).toBeDefined();
        if (path.startsWith('/dav/')) expect(hit.headers['dav']).toBe(fromDisk.headers['dav']);
      }
    }
    const journal = mock.requests();
    expect(journal).toHaveLength(9);
    for (const entry of journal) expect(entry).toMatchObject({ method: 'GET', status: 200, user: 'demo' });
    // A Range, a missing path, a container.
    const ranged = await answer(`${mock.url}/v2/files/${big.id}/content`, { Range: 'bytes=0-6' });
    expect(ranged).toMatchObject({ status: 206, body: 'content' });
    expect((await answer(`${mock.url}/dav/missing.txt`)).status).toBe(404);
    expect((await answer(`${mock.url}/v2/files/${root.id}/content`)).status).toBe(404);
    expect(mock.store.blobs.cache.bytes).toBe(large.length); // every lease given back
  });

  it("an entity's ETag answers If-None-Match with 304 and changes when the file does", async () => {
    mock = await startMock({ seed: 'empty' });
    const root = mock.store.root('demo');
    const file = await mock.store.createFile('demo', root.id, { name: 'b.txt' }, Buffer.from('b'));
    const url = `${mock.url}/v2/files/${file.id}`;
    const etag = (await answer(url)).headers['etag']!;
    // node:http, not fetch: fetch adds Cache-Control: no-cache to a conditional request, which forbids the 304.
    const status = await new Promise<number | undefined>((resolve, reject) =>
      get(url, { headers: { ...HEADERS, 'If-None-Match': etag } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      }).on('error', reject),
    );
    expect(status).toBe(304);
    await mock.store.update('demo', file.id, { name: 'renamed.txt' });
    expect((await answer(url)).headers['etag']).not.toBe(etag);
  });

  it('a file entity of a container is a 404, a wrong password a 401', async () => {
    mock = await startMock({ seed: 'empty' });
    const root = mock.store.root('demo');
    const bad = await fetch(`${mock.url}/v2/files/${root.id}`, { headers: HEADERS });
    expect(bad.status).toBe(404);
    const wrong = await fetch(`${mock.url}/v2/containers/${root.id}/contents`, {
      headers: { ...HEADERS, Authorization: `Basic ${Buffer.from('demo:nope').toString('base64')}` },
    });
    expect(wrong.status).toBe(401);
  });
});
