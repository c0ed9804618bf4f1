import { describe, expect, it } from 'vitest';
import type { NodeRecord } from '../../../src/domain/model.js';
import {
  parseSyntheticBlobId,
  SYNTHETIC_BLOCK as BLOCK,
  syntheticBytes,
} from '../../../src/storage/synthetic-content.js';
import { binaryParser, useCloud, type CloudClient } from '../../helpers/cloud.js';
import { dav } from '../dav/dav-helpers.js';

/** The generated files of the mock, by name (a generated account names its files file-1.bin, file-2.bin, ...). */
function generatedFiles(client: CloudClient): Map<string, NodeRecord> {
  const files = new Map<string, NodeRecord>();
  for (const node of Object.values(client.mock.store.snapshot().nodes))
    if (node.kind === 'file') files.set(node.name, node);
  return files;
}

/** What the generator derives for a file (its blob id names seed, id, version and size). */
function expectedBytes(node: NodeRecord): Buffer {
  return syntheticBytes(parseSyntheticBlobId(node.blobId!)!);
}

const get = (client: CloudClient, path: string) => dav(client.app, 'GET', path).parse(binaryParser);

// Synthetic content always streams as views of its block; the content cache on or off changes nothing.
for (const [label, size, contentCacheMiB] of [
  ['a 100 KB synthetic file', 100_000, undefined],
  ['a 9 MB synthetic file (written in several batches), the content cache off', 9_000_000, 0],
] as const) {
  describe(`reading ${label} through the one send path (/v2 and /dav)`, () => {
    const cloud = useCloud({ seed: 'empty', contentCacheMiB, generate: { files: 3, size, seed: 11 } });

    it('answers its whole derived bytes, with Content-Length, an ETag and Accept-Ranges', async () => {
      const node = generatedFiles(cloud.client).get('file-1.bin')!;
      expect(node.bytes).toBe(size);
      for (const path of [`/v2/files/${node.id}/content`, '/dav/file-1.bin']) {
        const res = await get(cloud.client, path).expect(200);
        expect(res.headers['content-length']).toBe(String(size));
        expect(res.headers['etag']).toBe(`"${node.id}-1"`);
        expect(res.headers['accept-ranges']).toBe('bytes');
        expect((res.body as Buffer).equals(expectedBytes(node))).toBe(true);
      }
    });

    it('answers Range reads with only the bytes asked for: a span, an open end, a suffix; several ranges get the whole file', async () => {
      const node = generatedFiles(cloud.client).get('file-2.bin')!;
      const whole = expectedBytes(node);
      const path = `/v2/files/${node.id}/content`;
      const cases: Array<[string, number, number]> = [
        ['bytes=0-99', 0, 99],
        ['bytes=65530-70000', 65_530, 70_000],
        // At the edges of the generator's chunks: the last byte of one, the first of the next, both, whole chunks.
        [`bytes=${BLOCK - 1}-${BLOCK - 1}`, BLOCK - 1, BLOCK - 1],
        [`bytes=${BLOCK}-${BLOCK}`, BLOCK, BLOCK],
        [`bytes=${BLOCK - 1}-${BLOCK}`, BLOCK - 1, BLOCK],
        [`bytes=${BLOCK}-${3 * BLOCK - 1}`, BLOCK, 3 * BLOCK - 1],
        [`bytes=${BLOCK + 1}-${3 * BLOCK + 1}`, BLOCK + 1, 3 * BLOCK + 1],
        [`bytes=${size - 17}-`, size - 17, size - 1],
        ['bytes=-500', size - 500, size - 1],
        [`bytes=-${size + 10}`, 0, size - 1],
      ];
      for (const [range, start, end] of cases) {
        const res = await get(cloud.client, path).set('Range', range).expect(206);
        expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${size}`);
        expect((res.body as Buffer).equals(whole.subarray(start, end + 1))).toBe(true);
      }
      const several = await get(cloud.client, path).set('Range', 'bytes=0-9,5000-5009').expect(200);
      expect((several.body as Buffer).equals(whole)).toBe(true);
      await get(cloud.client, path).set('Range', `bytes=${size}-`).expect(416);
    });

    it('answers conditional reads as for stored files: If-None-Match 304, If-Match 412, If-Range by ETag', async () => {
      const node = generatedFiles(cloud.client).get('file-3.bin')!;
      const path = `/dav/file-3.bin`;
      const etag = `"${node.id}-1"`;
      await get(cloud.client, path).set('If-None-Match', etag).expect(304);
      await get(cloud.client, path).set('If-Match', '"other-1"').expect(412);
      const current = await get(cloud.client, path).set('If-Range', etag).set('Range', 'bytes=10-19').expect(206);
      expect((current.body as Buffer).equals(expectedBytes(node).subarray(10, 20))).toBe(true);
      const stale = await get(cloud.client, path).set('If-Range', '"other-1"').set('Range', 'bytes=10-19').expect(200);
      expect((stale.body as Buffer).length).toBe(size);
      const head = await dav(cloud.client.app, 'HEAD', path).expect(200);
      expect(head.headers['content-length']).toBe(String(size));
    });
  });
}

describe('writing over synthetic content', () => {
  const cloud = useCloud({ seed: 'empty', generate: { files: 4, size: '64KB', seed: 5 } });

  it('an overwrite (/v2 PUT content, /dav PUT) replaces it with stored bytes and a new ETag', async () => {
    const files = generatedFiles(cloud.client);
    const first = files.get('file-1.bin')!;
    await cloud.client.put(`/v2/files/${first.id}/content`).send(Buffer.from('new bytes')).expect(204);
    const read = await get(cloud.client, `/v2/files/${first.id}/content`).expect(200);
    expect((read.body as Buffer).toString()).toBe('new bytes');
    expect(read.headers['etag']).toBe(`"${first.id}-2"`);
    await dav(cloud.client.app, 'PUT', '/dav/file-2.bin').send(Buffer.from('dav bytes')).expect(204);
    expect(((await get(cloud.client, '/dav/file-2.bin').expect(200)).body as Buffer).toString()).toBe('dav bytes');
    // The others are untouched.
    const third = files.get('file-3.bin')!;
    expect(((await get(cloud.client, '/dav/file-3.bin').expect(200)).body as Buffer).equals(expectedBytes(third))).toBe(
      true,
    );
  });

  it('a block write (Content-Range) makes it stored: the derived bytes with the block over them', async () => {
    const node = generatedFiles(cloud.client).get('file-1.bin')!;
    await cloud.client
      .put(`/v2/files/${node.id}/content`)
      .set('Content-Range', 'bytes 100-104/*')
      .send(Buffer.from('BLOCK'))
      .expect(204);
    const expected = Buffer.from(expectedBytes(node));
    expected.write('BLOCK', 100);
    const read = await get(cloud.client, `/v2/files/${node.id}/content`).expect(200);
    expect((read.body as Buffer).equals(expected)).toBe(true);
    const stored = cloud.client.mock.store.snapshot().nodes[node.id]!;
    expect(parseSyntheticBlobId(stored.blobId!)).toBeUndefined();
  });

  it('a copy reads the same bytes as its source; deleting the source leaves the copy whole', async () => {
    const node = generatedFiles(cloud.client).get('file-4.bin')!;
    await dav(cloud.client.app, 'COPY', '/dav/file-4.bin').set('Destination', '/dav/copy.bin').expect(201);
    await dav(cloud.client.app, 'DELETE', '/dav/file-4.bin').expect(204);
    const copy = await get(cloud.client, '/dav/copy.bin').expect(200);
    expect((copy.body as Buffer).equals(expectedBytes(node))).toBe(true);
  });
});
