import { describe, expect, it } from 'vitest';
import { useCloud } from '../../helpers/cloud.js';
import { PROPFIND_ALL, dav, readMultistatus } from './dav-helpers.js';

describe('a collection addressed without its trailing slash (issue 11, item 6; RFC 4918 5.2)', () => {
  const cloud = useCloud();
  const app = () => cloud.client.app;

  it('GET and HEAD redirect with 301 to the slash form, keeping the encoding and the query', async () => {
    await dav(app(), 'MKCOL', '/dav/My%20Docs').expect(201);
    for (const method of ['GET', 'HEAD']) {
      const res = await dav(app(), method, '/dav/My%20Docs?x=1').redirects(0).expect(301);
      expect(res.headers['location']).toBe('/dav/My%20Docs/?x=1');
    }
    const listed = await dav(app(), 'GET', '/dav/My%20Docs/').expect(200);
    expect(listed.headers['content-location']).toBeUndefined();
  });

  it('PROPFIND is served with Content-Location naming the slash form, and hrefs end with "/"', async () => {
    await dav(app(), 'MKCOL', '/dav/box/').expect(201);
    await dav(app(), 'PUT', '/dav/box/a.txt').send('a').expect(201);
    const res = await dav(app(), 'PROPFIND', '/dav/box')
      .set('Depth', '1')
      .set('Content-Type', 'application/xml')
      .send(PROPFIND_ALL)
      .expect(207);
    expect(res.headers['content-location']).toBe('/dav/box/');
    expect(readMultistatus(res.text).map((r) => r.href)).toEqual(['/dav/box/', '/dav/box/a.txt']);
  });

  it('files, the slash form itself, missing names and the root are left alone', async () => {
    await dav(app(), 'PUT', '/dav/a.txt').send('a').expect(201);
    const file = await dav(app(), 'GET', '/dav/a.txt').expect(200);
    expect(file.headers['content-location']).toBeUndefined();
    await dav(app(), 'GET', '/dav/missing').expect(404);
    await dav(app(), 'GET', '/dav').redirects(0).expect(200);
    const propfind = await dav(app(), 'PROPFIND', '/dav/a.txt').set('Depth', '0').expect(207);
    expect(propfind.headers['content-location']).toBeUndefined();
  });
});
