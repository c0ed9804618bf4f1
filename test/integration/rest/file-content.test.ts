import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { binaryParser, readXml, useCloud } from '../../helpers/cloud.js';
import { basic, listenOnLoopback } from '../../helpers/raw-http.js';

describe('file content (rows 5 and 6)', () => {
  const cloud = useCloud();

  it('row 5: PUT raw bytes to content answers 204 and replaces the content; version grows', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'a.bin', Buffer.from('old content'));
    const before = readXml((await cloud.client.get(file)).text).file;
    const bytes = Buffer.from([0, 1, 2, 255, 254, 13, 10, 0]);
    const res = await cloud.client
      .put(`${file}/content`)
      .set('Content-Type', 'application/octet-stream')
      .send(bytes)
      .expect(204);
    expect(res.text).toBe('');
    const after = readXml((await cloud.client.get(file)).text).file;
    expect(after.bytes).toBe('8');
    expect(Number(after.version)).toBe(Number(before.version) + 1);
    const content = await cloud.client.get(`${file}/content`).buffer(true).parse(binaryParser).expect(200);
    expect(Buffer.compare(content.body as Buffer, bytes)).toBe(0);
  });

  it('row 6: GET content returns the bytes with the stored media type, an ETag and Accept-Ranges', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'page.html', '<p>hi</p>');
    const res = await cloud.client.get(`${file}/content?n=123`).expect(200);
    expect(res.text).toBe('<p>hi</p>');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['etag']).toMatch(/^"/);
    expect(res.headers['accept-ranges']).toBe('bytes');
  });

  it('Range answers 206 with the slice; an unsatisfiable range 416', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'digits.txt', '0123456789');
    const res = await cloud.client.get(`${file}/content`).set('Range', 'bytes=2-5').expect(206);
    expect(res.text).toBe('2345');
    expect(res.headers['content-range']).toBe('bytes 2-5/10');
    await cloud.client.get(`${file}/content`).set('Range', 'bytes=50-60').expect(416);
  });

  it('If-None-Match with the current ETag answers 304; after a change it answers 200', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'e.txt', 'one');
    const etag = (await cloud.client.get(`${file}/content`)).headers['etag'] as string;
    await cloud.client.get(`${file}/content`).set('If-None-Match', etag).expect(304);
    await cloud.client.put(`${file}/content`).send(Buffer.from('two')).expect(204);
    const res = await cloud.client.get(`${file}/content`).set('If-None-Match', etag).expect(200);
    expect(res.text).toBe('two');
  });

  it('serves <file>/content/<file name> like <file>/content; other sub-paths are 404', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'sync.txt', 'synced');
    expect((await cloud.client.get(`${file}/content/sync.txt`).expect(200)).text).toBe('synced');
    await cloud.client.get(`${file}/sad/content`).expect(404).expect('Content-Type', 'text/plain; charset=UTF-8');
  });

  it('Content-Range block write: offset from the range, length from the body ("bytes 0-2/*" with 2 bytes)', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'block.txt', 'abcdefgh');
    await cloud.client.put(`${file}/content`).set('Content-Range', 'bytes 0-2/*').send(Buffer.from('XY')).expect(204);
    expect((await cloud.client.get(`${file}/content`)).text).toBe('XYcdefgh');
    await cloud.client.put(`${file}/content`).set('Content-Range', 'bytes 6-9/*').send(Buffer.from('1234')).expect(204);
    expect((await cloud.client.get(`${file}/content`)).text).toBe('XYcdef1234');
  });

  it('refuses a malformed Content-Range (400) and a block beyond the end of the file (400)', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'block.txt', 'abc');
    await cloud.client.put(`${file}/content`).set('Content-Range', 'lines 1-2').send(Buffer.from('x')).expect(400);
    await cloud.client.put(`${file}/content`).set('Content-Range', 'bytes 10-11/*').send(Buffer.from('x')).expect(400);
    expect((await cloud.client.get(`${file}/content`)).text).toBe('abc');
  });

  it('PUT content on an unknown file is 404; on a container address 404', async () => {
    const root = await cloud.client.rootPath();
    await cloud.client.put('/v2/files/nope/content').send(Buffer.from('x')).expect(404);
    await cloud.client
      .put(`${root.replace('containers', 'files')}/content`)
      .send(Buffer.from('x'))
      .expect(404);
  });
});

describe('chunked uploads', () => {
  const cloud = useCloud();
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  it('accepts a Transfer-Encoding: chunked PUT of content', async () => {
    const server = await listenOnLoopback(cloud.client.app);
    close = server.close;
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'chunked.bin', 'x');
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          port: server.port,
          host: '127.0.0.1',
          method: 'PUT',
          path: `${file}/content`,
          headers: { Authorization: basic('demo', 'demo'), 'X-Client-Specification': '2', Connection: 'close' },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 5; i++) req.write(Buffer.alloc(1000, 65 + i));
      req.end();
    });
    expect(status).toBe(204);
    const res = await cloud.client.get(`${file}/content`).buffer(true).parse(binaryParser);
    const body = (res.body as Buffer).toString('latin1');
    expect(body.length).toBe(5000);
    expect(body.slice(999, 1001)).toBe('AB');
  });
});
