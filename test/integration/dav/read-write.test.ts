import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startMock } from '../../../src/index.js';
import { binaryParser, useCloud } from '../../helpers/cloud.js';
import { dav } from './dav-helpers.js';

describe('WebDAV GET, HEAD and PUT', () => {
  const cloud = useCloud();
  const app = () => cloud.client.app;
  const body = Buffer.from('0123456789abcdef');

  it('PUT answers 201 for a new file and 204 for a replacement, each with the new ETag', async () => {
    const created = await dav(app(), 'PUT', '/dav/f.bin').send(body).expect(201);
    const replaced = await dav(app(), 'PUT', '/dav/f.bin').send(Buffer.from('new')).expect(204);
    expect(created.headers['etag']).toMatch(/^".+"$/);
    expect(replaced.headers['etag']).not.toBe(created.headers['etag']);
    const got = await dav(app(), 'GET', '/dav/f.bin').parse(binaryParser).expect(200);
    expect(got.body.toString()).toBe('new');
    expect(got.headers['etag']).toBe(replaced.headers['etag']);
  });

  it('GET and HEAD carry ETag, Last-Modified and Accept-Ranges; Range gives 206 and 416', async () => {
    await dav(app(), 'PUT', '/dav/f.bin').send(body).expect(201);
    const head = await dav(app(), 'HEAD', '/dav/f.bin').expect(200);
    expect(head.headers['accept-ranges']).toBe('bytes');
    expect(head.headers['content-length']).toBe('16');
    expect(new Date(head.headers['last-modified']!).getTime()).not.toBeNaN();
    const part = await dav(app(), 'GET', '/dav/f.bin').set('Range', 'bytes=2-5').parse(binaryParser).expect(206);
    expect(part.body.toString()).toBe('2345');
    await dav(app(), 'GET', '/dav/f.bin').set('Range', 'bytes=100-200').expect(416);
  });

  it('conditional GET: If-None-Match gives 304, If-Match with another ETag gives 412', async () => {
    const { headers } = await dav(app(), 'PUT', '/dav/f.bin').send(body).expect(201);
    await dav(app(), 'GET', '/dav/f.bin').set('If-None-Match', headers['etag']!).expect(304);
    await dav(app(), 'GET', '/dav/f.bin').set('If-Match', '"other"').expect(412);
  });

  it('PUT honours If-None-Match: * and If-Match', async () => {
    const { headers } = await dav(app(), 'PUT', '/dav/f.bin').send(body).expect(201);
    await dav(app(), 'PUT', '/dav/f.bin').set('If-None-Match', '*').send('x').expect(412);
    await dav(app(), 'PUT', '/dav/new.bin').set('If-None-Match', '*').send('x').expect(201);
    await dav(app(), 'PUT', '/dav/f.bin').set('If-Match', '"stale"').send('x').expect(412);
    await dav(app(), 'PUT', '/dav/f.bin').set('If-Match', headers['etag']!).send('x').expect(204);
    await dav(app(), 'PUT', '/dav/missing.bin').set('If-Match', '*').send('x').expect(412);
  });

  it('PUT without a parent is 409, on a collection 405', async () => {
    await dav(app(), 'PUT', '/dav/no/parent.txt').send('x').expect(409);
    await dav(app(), 'MKCOL', '/dav/dir').expect(201);
    await dav(app(), 'PUT', '/dav/dir').send('x').expect(405);
  });

  it('PUT sets the MIME type from Content-Type, seen through REST', async () => {
    await dav(app(), 'PUT', '/dav/page.html').set('Content-Type', 'text/html; charset=utf-8').send('<p/>').expect(201);
    const node = cloud.client.mock.store.resolvePath('demo', ['page.html'])!;
    const rest = await cloud.client.get(`/v2/files/${node.id}`).expect(200);
    expect(rest.text).toContain('<mime_type>text/html</mime_type>');
  });

  it('GET on a collection lists its children, one a line', async () => {
    await dav(app(), 'MKCOL', '/dav/dir').expect(201);
    await dav(app(), 'PUT', '/dav/dir/a.txt').send('a').expect(201);
    await dav(app(), 'MKCOL', '/dav/dir/sub').expect(201);
    const res = await dav(app(), 'GET', '/dav/dir/').expect(200);
    expect(res.text).toBe('sub/\na.txt\n');
  });

  it('streams a chunked PUT sent with Expect: 100-continue', async () => {
    const mock = await startMock({ seed: 'empty' });
    try {
      const parts = [Buffer.alloc(70_000, 1), Buffer.alloc(50_000, 2)];
      const status = await new Promise<{ status: number; continued: boolean }>((resolve, reject) => {
        let continued = false;
        const req = httpRequest(`${mock.url}/dav/chunked.bin`, {
          method: 'PUT',
          headers: {
            Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}`,
            Expect: '100-continue',
            'Transfer-Encoding': 'chunked',
          },
        });
        req.on('continue', () => {
          continued = true;
          req.write(parts[0]);
          req.end(parts[1]);
        });
        req.on('response', (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, continued }));
        });
        req.on('error', reject);
      });
      expect(status).toEqual({ status: 201, continued: true });
      const node = mock.store.resolvePath('demo', ['chunked.bin'])!;
      expect(node.bytes).toBe(120_000);
    } finally {
      await mock.close();
    }
  });
});
