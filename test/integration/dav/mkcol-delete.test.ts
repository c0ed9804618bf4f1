import { describe, expect, it } from 'vitest';
import { readXml, useCloud } from '../../helpers/cloud.js';
import { startMock } from '../../../src/index.js';
import { dav, rawStatus } from './dav-helpers.js';

describe('WebDAV MKCOL and DELETE', () => {
  const cloud = useCloud();
  const app = () => cloud.client.app;
  const store = () => cloud.client.mock.store;

  it('MKCOL creates a container (201) that REST lists', async () => {
    await dav(app(), 'MKCOL', '/dav/Projects').expect(201);
    const root = await cloud.client.rootPath();
    expect(await cloud.client.childNames(root)).toEqual(['Projects']);
    expect(store().resolvePath('demo', ['Projects'])!.kind).toBe('container');
  });

  it('MKCOL on an existing collection or file is 405, without a parent 409, with a body 415', async () => {
    await dav(app(), 'MKCOL', '/dav/a').expect(201);
    await dav(app(), 'MKCOL', '/dav/a/').expect(405);
    await dav(app(), 'PUT', '/dav/f').send('x').expect(201);
    await dav(app(), 'MKCOL', '/dav/f').expect(405);
    await dav(app(), 'MKCOL', '/dav/missing/child').expect(409);
    await dav(app(), 'MKCOL', '/dav/b').set('Content-Type', 'xzy-foo/bar-512').send('afafafaf').expect(415);
    expect(store().resolvePath('demo', ['b'])).toBeUndefined();
  });

  it('DELETE moves the object and its subtree to the recycle bin (204), like a REST DELETE', async () => {
    await dav(app(), 'MKCOL', '/dav/dir').expect(201);
    await dav(app(), 'PUT', '/dav/dir/f.txt').send('x').expect(201);
    const id = store().resolvePath('demo', ['dir'])!.id;
    await dav(app(), 'DELETE', '/dav/dir/').expect(204);
    await dav(app(), 'GET', '/dav/dir/f.txt').expect(404);
    const bin = readXml((await cloud.client.get('/v2/recyclebin').expect(200)).text);
    expect(JSON.stringify(bin)).toContain(id);
    await cloud.client.get(`/v2/containers/${id}`).expect(404);
  });

  it('the name is free again after a DELETE', async () => {
    await dav(app(), 'PUT', '/dav/f.txt').send('one').expect(201);
    await dav(app(), 'DELETE', '/dav/f.txt').expect(204);
    await dav(app(), 'PUT', '/dav/f.txt').send('two').expect(201);
    await dav(app(), 'MKCOL', '/dav/c').expect(201);
    await dav(app(), 'DELETE', '/dav/c').expect(204);
    await dav(app(), 'MKCOL', '/dav/c').expect(201);
  });

  it('DELETE of a missing resource is 404, of the root 403, with a fragment 400', async () => {
    await dav(app(), 'DELETE', '/dav/404me').expect(404);
    await dav(app(), 'DELETE', '/dav/').expect(403);
    const mock = await startMock({ seed: 'empty' });
    try {
      expect(await rawStatus(mock.url, 'MKCOL', '/dav/frag/')).toBe(201);
      expect(await rawStatus(mock.url, 'DELETE', '/dav/frag/#ment')).toBe(400);
      expect(mock.store.resolvePath('demo', ['frag'])).toBeDefined();
    } finally {
      await mock.close();
    }
  });

  it('REST deletions show in WebDAV at once', async () => {
    await dav(app(), 'PUT', '/dav/f.txt').send('x').expect(201);
    const id = store().resolvePath('demo', ['f.txt'])!.id;
    await cloud.client.delete(`/v2/files/${id}`).expect(204);
    await dav(app(), 'PROPFIND', '/dav/f.txt').set('Depth', '0').expect(404);
  });
});
