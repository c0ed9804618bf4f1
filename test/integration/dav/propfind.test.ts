import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { davRouter } from '../../../src/dav/index.js';
import { binaryParser, pathOf, readXml, useCloud } from '../../helpers/cloud.js';
import { only } from '../../helpers/xml-documents.js';
import { PROPFIND_ALL, dav, propfindBody, readMultistatus } from './dav-helpers.js';

describe('WebDAV OPTIONS and PROPFIND', () => {
  const cloud = useCloud();
  const app = () => cloud.client.app;

  async function seed() {
    await dav(app(), 'MKCOL', '/dav/Docs').expect(201);
    await dav(app(), 'PUT', '/dav/Docs/a file.txt').set('Content-Type', 'text/plain').send('hello').expect(201);
    await dav(app(), 'MKCOL', '/dav/Docs/Sub').expect(201);
    await dav(app(), 'PUT', '/dav/Docs/Sub/deep.bin').send(Buffer.alloc(3)).expect(201);
  }

  it('OPTIONS announces class 1 and 2, the methods and MS-Author-Via', async () => {
    const res = await dav(app(), 'OPTIONS', '/dav/').expect(200);
    expect(res.headers['dav']).toBe('1, 2');
    expect(res.headers['ms-author-via']).toBe('DAV');
    for (const m of ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK', 'PUT', 'DELETE']) {
      expect(res.headers['allow']).toContain(m);
    }
  });

  it('answers OPTIONS at the host root with the same DAV headers (Windows probes the root first)', async () => {
    const res = await request(app()).options('/').expect(200);
    expect(res.headers['dav']).toBe('1, 2');
    expect(res.headers['ms-author-via']).toBe('DAV');
  });

  it('asks for the same Basic credentials as /v2', async () => {
    await request(app()).options('/dav/').expect(401);
    await dav(app(), 'PROPFIND', '/dav/', { user: 'demo', password: 'wrong' }).expect(401);
  });

  it('Depth 0 with an empty body is allprop on the collection itself, href with a trailing slash', async () => {
    await seed();
    const res = await dav(app(), 'PROPFIND', '/dav/Docs').set('Depth', '0').expect(207);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    const [only, ...rest] = readMultistatus(res.text);
    expect(rest).toHaveLength(0);
    expect(only!.href).toBe('/dav/Docs/');
    expect(only!.props['D:resourcetype']!.value).toHaveProperty('D:collection');
    expect(only!.props['D:displayname']!.value).toBe('Docs');
    expect(Object.keys(only!.props)).toEqual(
      expect.arrayContaining(['D:creationdate', 'D:getlastmodified', 'D:supportedlock', 'D:lockdiscovery']),
    );
    expect(only!.props['D:quota-used-bytes']!.status).toBe(200);
    expect(only!.props['D:getetag']).toBeUndefined(); // collections have no ETag
  });

  it('Depth 1 lists the children with percent-encoded hrefs and file properties', async () => {
    await seed();
    const res = await dav(app(), 'PROPFIND', '/dav/Docs/').set('Depth', '1').send(PROPFIND_ALL).expect(207);
    const entries = readMultistatus(res.text);
    expect(entries.map((e) => e.href).sort()).toEqual(['/dav/Docs/', '/dav/Docs/Sub/', '/dav/Docs/a%20file.txt']);
    const file = entries.find((e) => e.href.endsWith('.txt'))!;
    expect(file.props['D:getcontentlength']!.value).toBe('5');
    expect(file.props['D:getcontenttype']!.value).toBe('text/plain');
    expect(file.props['D:resourcetype']!.value).toBe('');
    expect(new Date(String(file.props['D:getlastmodified']!.value)).getTime()).not.toBeNaN();
  });

  it('Depth infinity (the default) walks the whole subtree', async () => {
    await seed();
    const res = await dav(app(), 'PROPFIND', '/dav/Docs/').send(propfindBody('resourcetype')).expect(207);
    expect(readMultistatus(res.text).map((e) => e.href)).toContain('/dav/Docs/Sub/deep.bin');
  });

  it('getetag equals the ETag of a WebDAV GET and of the REST content', async () => {
    await seed();
    const res = await dav(app(), 'PROPFIND', '/dav/Docs/a%20file.txt')
      .set('Depth', '0')
      .send(propfindBody('getetag'))
      .expect(207);
    const etag = readMultistatus(res.text)[0]!.props['D:getetag']!.value;
    const get = await dav(app(), 'GET', '/dav/Docs/a%20file.txt').expect(200);
    expect(get.headers['etag']).toBe(etag);
    const root = await cloud.client.rootPath();
    const list = readXml((await cloud.client.get(`${root}/contents`).expect(200)).text)['file-list'];
    const docs = pathOf(only(list.container)['@_xlink:href']);
    const files = readXml((await cloud.client.get(`${docs}/contents`).expect(200)).text)['file-list'];
    const filePath = pathOf(only(files.file)['@_xlink:href']);
    const rest = await cloud.client.get(`${filePath}/content`).buffer(true).parse(binaryParser).expect(200);
    expect(rest.headers['etag']).toBe(etag);
  });

  it('named props: known ones in a 200 propstat, unknown ones in a 404 propstat', async () => {
    await seed();
    const body =
      '<propfind xmlns="DAV:" xmlns:x="urn:x"><prop><getcontentlength/><x:nothing/><quota-used-bytes/></prop></propfind>';
    const res = await dav(app(), 'PROPFIND', '/dav/Docs/Sub/deep.bin').set('Depth', '0').send(body).expect(207);
    const [entry] = readMultistatus(res.text);
    expect(entry!.props['D:getcontentlength']).toEqual({ status: 200, value: '3' });
    expect(entry!.props['nothing']!.status).toBe(404);
    expect(entry!.props['D:quota-used-bytes']!.status).toBe(404); // quota is a collection property
  });

  it('quota properties on a collection agree with /v2/account', async () => {
    await seed();
    const res = await dav(app(), 'PROPFIND', '/dav/')
      .set('Depth', '0')
      .send(propfindBody('quota-used-bytes', 'quota-available-bytes'))
      .expect(207);
    const [entry] = readMultistatus(res.text);
    const account = readXml((await cloud.client.get('/v2/account').expect(200)).text)['account-info'];
    expect(entry!.props['D:quota-used-bytes']!.value).toBe(String(account.storage.used));
    expect(Number(entry!.props['D:quota-available-bytes']!.value)).toBe(
      Number(account.storage.allocated) - Number(account.storage.used),
    );
  });

  it('propname lists names without values', async () => {
    await seed();
    const res = await dav(app(), 'PROPFIND', '/dav/Docs/a%20file.txt')
      .set('Depth', '0')
      .send('<D:propfind xmlns:D="DAV:"><D:propname/></D:propfind>')
      .expect(207);
    const [entry] = readMultistatus(res.text);
    expect(entry!.props['D:getetag']).toEqual({ status: 200, value: '' });
    expect(entry!.props['D:getcontentlength']).toEqual({ status: 200, value: '' });
  });

  it('answers 400 to malformed XML, an invalid namespace declaration and a bad Depth, and keeps serving', async () => {
    await dav(app(), 'PROPFIND', '/dav/').send('<propfind xmlns="DAV:"><prop>').expect(400);
    await dav(app(), 'PROPFIND', '/dav/')
      .send('<D:propfind xmlns:D="DAV:"><D:prop><bar:foo xmlns:bar=""/></D:prop></D:propfind>')
      .expect(400);
    await dav(app(), 'PROPFIND', '/dav/').send('<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>').expect(400);
    await dav(app(), 'PROPFIND', '/dav/')
      .send(`<propfind xmlns="DAV:">${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}</propfind>`)
      .expect(400);
    const bad = await dav(app(), 'PROPFIND', '/dav/').set('Depth', '2').expect(400);
    expect(bad.headers['content-type']).toMatch(/^text\/plain/);
    await dav(app(), 'PROPFIND', '/dav/').set('Depth', '0').expect(207);
  });

  it('answers 404 for a missing resource', async () => {
    await dav(app(), 'PROPFIND', '/dav/nothing-here').set('Depth', '0').expect(404);
  });

  it('refuses a Depth: infinity listing over the bound with DAV:propfind-finite-depth', async () => {
    await seed();
    const small = express().use(
      '/dav',
      (_req, res, next) => {
        res.locals['user'] = 'demo';
        res.locals.service = {
          store: cloud.client.mock.store,
          users: () => new Map(),
          rules: { strict: false, deviates: () => false },
          log: () => undefined,
          publicUrl: undefined,
          mountPath: '',
        };
        next();
      },
      davRouter({ maxInfiniteNodes: 3 }),
    );
    const res = await dav(small, 'PROPFIND', '/dav/Docs').set('Depth', 'infinity').expect(403);
    expect(res.text).toContain('propfind-finite-depth');
    await dav(small, 'PROPFIND', '/dav/Docs').set('Depth', '1').expect(207);
  });
});
