import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import type { StoreCache } from '../../../src/storage/store-cache.js';
import { createApp } from '../../../src/index.js';
import { SPEC, binaryParser, useCloud, type CloudClient } from '../../helpers/cloud.js';

/** Everything a client sees of an answer but the Date header. */
async function answer(req: request.Test): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  const res = await req.buffer(true).parse(binaryParser);
  return { status: res.status, headers: withoutDate(res.headers), body: res.body as Buffer };
}

function withoutDate(headers: unknown): Record<string, string> {
  const copy = { ...(headers as Record<string, string>) };
  delete copy['date'];
  return copy;
}

const idOf = (filePath: string): string => filePath.split('/').pop()!;

/** The bytes the cache keeps for a blob. */
const held = (cache: StoreCache, blobId: string): Buffer | undefined => cache.get(blobId);

function blobOf(client: CloudClient, filePath: string, user = 'demo'): string {
  const blobId = client.mock.store.get(user, idOf(filePath), 'file').blobId;
  if (!blobId) throw new Error('the file has no blob');
  return blobId;
}

describe('content cache: a plain GET of a small blob is answered from memory, exactly as streamed', () => {
  const cloud = useCloud({ seed: 'demo', users: { demo: 'demo', bob: 'pw' } });
  const bytes = randomBytes(300 * 1024);
  let file: string;
  beforeEach(async () => {
    file = await cloud.client.uploadFile(await cloud.client.rootPath(), 'data.bin', bytes);
  });

  it('an upload does not fill the cache; the first GET does', async () => {
    const cache = cloud.client.mock.store.blobs.cache;
    expect(held(cache, blobOf(cloud.client, file))).toBeUndefined();
    await cloud.client.get(`${file}/content`).expect(200);
    expect(held(cache, blobOf(cloud.client, file))?.equals(bytes)).toBe(true);
  });

  for (const view of ['/v2', '/dav'] as const) {
    it(`${view}: the cached answer (GET and HEAD) is byte- and header-identical to the streamed one`, async () => {
      const path = view === '/v2' ? `${file}/content` : '/dav/data.bin';
      const miss = await answer(cloud.client.get(path));
      const hit = await answer(cloud.client.get(path));
      // A conditional header that does not match still answers 200, with the same headers.
      const streamed = await answer(cloud.client.get(path).set('If-None-Match', '"not-this"'));
      expect(miss.status).toBe(200);
      expect(miss.body.equals(bytes)).toBe(true);
      for (const other of [hit, streamed]) {
        expect(other.status).toBe(200);
        expect(other.headers).toEqual(miss.headers);
        expect(other.body.equals(bytes)).toBe(true);
      }
      expect(Object.keys(hit.headers)).toEqual(Object.keys(streamed.headers));
      const head = await cloud.client.head(path).expect(200);
      const streamedHead = await cloud.client
        .head(path)
        .set('If-Modified-Since', new Date(0).toUTCString())
        .expect(200);
      expect(withoutDate(head.headers)).toEqual(miss.headers);
      expect(withoutDate(streamedHead.headers)).toEqual(miss.headers);
      expect(head.text ?? '').toBe('');
    });
  }

  it('Range and conditional requests still answer 206, 304, 412 and 416 once the blob is cached', async () => {
    const path = `${file}/content`;
    const etag = (await cloud.client.get(path).expect(200)).headers['etag'] as string;
    expect(held(cloud.client.mock.store.blobs.cache, blobOf(cloud.client, file))).toBeDefined();
    for (const p of [path, '/dav/data.bin']) {
      const ranged = await answer(cloud.client.get(p).set('Range', 'bytes=2-5'));
      expect(ranged.status).toBe(206);
      expect(ranged.headers['content-range']).toBe(`bytes 2-5/${bytes.length}`);
      expect(ranged.body.equals(bytes.subarray(2, 6))).toBe(true);
      await cloud.client
        .get(p)
        .set('Range', `bytes=${bytes.length + 10}-`)
        .expect(416);
      await cloud.client.get(p).set('If-None-Match', etag).expect(304);
      await cloud.client.get(p).set('If-Match', '"other"').expect(412);
      await cloud.client.get(p).set('If-Unmodified-Since', new Date(0).toUTCString()).expect(412);
      await cloud.client.head(p).set('If-None-Match', etag).expect(304);
    }
  });

  it('an overwrite (whole, block or WebDAV) is never served stale, and the old bytes leave the cache', async () => {
    const cache = cloud.client.mock.store.blobs.cache;
    const path = `${file}/content`;
    await cloud.client.get(path).expect(200);
    const first = blobOf(cloud.client, file);
    await cloud.client
      .put(path)
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from('second'))
      .expect(204);
    expect(held(cache, first)).toBeUndefined();
    expect((await answer(cloud.client.get(path))).body.toString()).toBe('second');
    await cloud.client
      .put(path)
      .set('Content-Type', 'application/octet-stream')
      .set('Content-Range', 'bytes 0-2/*')
      .send(Buffer.from('SEC'))
      .expect(204);
    expect((await answer(cloud.client.get('/dav/data.bin'))).body.toString()).toBe('SECond');
    await cloud.client.put('/dav/data.bin').send(Buffer.from('third')).expect(204);
    expect((await answer(cloud.client.get(path))).body.toString()).toBe('third');
    expect((await answer(cloud.client.get('/dav/data.bin'))).body.toString()).toBe('third');
  });

  it('a deleted file is not served, its bytes leave the cache, and another user never gets them', async () => {
    const cache = cloud.client.mock.store.blobs.cache;
    const path = `${file}/content`;
    await cloud.client.get(path).expect(200);
    const blobId = blobOf(cloud.client, file);
    expect(held(cache, blobId)).toBeDefined();
    await request(cloud.client.app).get(path).auth('bob', 'pw').set(SPEC).expect(404);
    await request(cloud.client.app).get('/dav/data.bin').auth('bob', 'pw').set(SPEC).expect(404);
    await cloud.client.delete(file).expect(204);
    await cloud.client.get(path).expect(404);
    await cloud.client.get('/dav/data.bin').expect(404);
    // The recycle bin may keep the node (and its blob) for a restore; emptying it drops the bytes.
    await cloud.client.head('/dav/Documents/readme.txt').expect(200);
    await cloud.client.mock.reset();
    expect(held(cache, blobId)).toBeUndefined();
    // Nothing dropped is still counted.
    expect(cache.bytes).toBe(0);
  });

  it('reset() serves the seed again, not the bytes cached before it', async () => {
    const readme = '/dav/Documents/readme.txt';
    const seeded = (await answer(cloud.client.get(readme))).body;
    await cloud.client.put(readme).send(Buffer.from('changed')).expect(204);
    expect((await answer(cloud.client.get(readme))).body.toString()).toBe('changed');
    await cloud.client.mock.reset();
    expect((await answer(cloud.client.get(readme))).body.equals(seeded)).toBe(true);
    expect(cloud.client.mock.store.blobs.cache.bytes).toBeLessThanOrEqual(cloud.client.mock.store.blobs.cache.maxBytes);
  });
});

describe('the content cache size is an option', () => {
  const cloud = useCloud({ seed: 'empty', contentCacheMiB: 0 });

  it('contentCacheMiB: 0 serves whole, Range and conditional reads from the file, the same as from memory', async () => {
    const bytes = randomBytes(100 * 1024);
    const file = await cloud.client.uploadFile(await cloud.client.rootPath(), 'd.bin', bytes);
    const whole = await answer(cloud.client.get(`${file}/content`));
    expect(whole.body.equals(bytes)).toBe(true);
    const ranged = await answer(cloud.client.get(`${file}/content`).set('Range', 'bytes=10-19'));
    expect([ranged.status, ranged.body.equals(bytes.subarray(10, 20))]).toEqual([206, true]);
    await cloud.client.get(`${file}/content`).set('If-None-Match', whole.headers['etag']!).expect(304);
    expect(cloud.client.mock.store.blobs.cache.maxBytes).toBe(0);
    expect(cloud.client.mock.store.blobs.cache.size).toBe(0);
  });

  it('a size that is not a number of MiB is refused at start', async () => {
    await expect(createApp({ contentCacheMiB: -1 })).rejects.toThrow(/contentCacheMiB/);
  });
});
