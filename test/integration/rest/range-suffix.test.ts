import { describe, expect, it } from 'vitest';
import { binaryParser, useCloud } from '../../helpers/cloud.js';
import { dav } from '../dav/dav-helpers.js';

const BYTES = Buffer.from('a 59-byte file: longer suffixes must select all of it.....\n');

describe('suffix ranges longer than the file (issue 11, item 8; RFC 9110 14.1.3)', () => {
  const cloud = useCloud();

  it('Range: bytes=-100 on a 59-byte file answers 206 with all 59 bytes on /v2 and on /dav', async () => {
    expect(BYTES.length).toBe(59);
    const file = await cloud.client.uploadFile(await cloud.client.rootPath(), 'f.txt', BYTES);
    for (const path of [`${file}/content`, '/dav/f.txt']) {
      const res = await dav(cloud.client.app, 'GET', path).set('Range', 'bytes=-100').parse(binaryParser).expect(206);
      expect(res.headers['content-range']).toBe('bytes 0-58/59');
      expect(Buffer.compare(res.body as Buffer, BYTES)).toBe(0);
    }
  });

  it('a suffix within the file still selects its tail; a zero suffix stays 416', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'f.txt', BYTES);
    const tail = await cloud.client.get(`${file}/content`).set('Range', 'bytes=-10').parse(binaryParser).expect(206);
    expect(tail.headers['content-range']).toBe('bytes 49-58/59');
    await cloud.client.get(`${file}/content`).set('Range', 'bytes=-0').expect(416);
    await dav(cloud.client.app, 'PUT', '/dav/one.txt').send('x').expect(201);
    const one = await dav(cloud.client.app, 'GET', '/dav/one.txt').set('Range', 'bytes=-5').expect(206);
    expect(one.headers['content-range']).toBe('bytes 0-0/1');
  });
});
