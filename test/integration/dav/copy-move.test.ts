import { describe, expect, it } from 'vitest';
import { useCloud } from '../../helpers/cloud.js';
import { dav } from './dav-helpers.js';

describe('WebDAV COPY and MOVE', () => {
  const cloud = useCloud();
  const app = () => cloud.client.app;
  const store = () => cloud.client.mock.store;
  const at = (...names: string[]) => store().resolvePath('demo', names);

  async function tree() {
    await dav(app(), 'MKCOL', '/dav/src').expect(201);
    await dav(app(), 'PUT', '/dav/src/a.txt').send('aaa').expect(201);
    await dav(app(), 'MKCOL', '/dav/src/sub').expect(201);
    await dav(app(), 'PUT', '/dav/src/sub/b.txt').send('bb').expect(201);
  }

  it('COPY with a path Destination creates a deep copy (201) with new ids and the same bytes', async () => {
    await tree();
    await dav(app(), 'COPY', '/dav/src/').set('Destination', '/dav/dst/').expect(201);
    expect(at('dst', 'sub', 'b.txt')!.bytes).toBe(2);
    expect(at('dst', 'a.txt')!.id).not.toBe(at('src', 'a.txt')!.id);
    const got = await dav(app(), 'GET', '/dav/dst/sub/b.txt').expect(200);
    expect(got.text).toBe('bb');
  });

  it('COPY with an absolute Destination URI on this host works too', async () => {
    await tree();
    await dav(app(), 'COPY', '/dav/src/a.txt')
      .set('Host', 'cloud.test')
      .set('Destination', 'http://cloud.test/dav/copy.txt')
      .expect(201);
    expect(at('copy.txt')!.bytes).toBe(3);
  });

  it('a Destination on another host is 502, outside /dav is 502, and a missing one 400', async () => {
    await tree();
    await dav(app(), 'COPY', '/dav/src/a.txt')
      .set('Host', 'cloud.test')
      .set('Destination', 'http://elsewhere.test/dav/x')
      .expect(502);
    await dav(app(), 'COPY', '/dav/src/a.txt').set('Destination', '/v2/x').expect(502);
    await dav(app(), 'COPY', '/dav/src/a.txt').expect(400);
  });

  it('COPY Depth 0 of a collection copies the collection without its members', async () => {
    await tree();
    await dav(app(), 'COPY', '/dav/src').set('Destination', '/dav/empty').set('Depth', '0').expect(201);
    expect(store().tree.children(at('empty')!.id)).toEqual([]);
    await dav(app(), 'COPY', '/dav/src').set('Destination', '/dav/x').set('Depth', '1').expect(400);
  });

  it('Overwrite: F onto an existing destination is 412; Overwrite: T replaces it (204)', async () => {
    await tree();
    await dav(app(), 'PUT', '/dav/other.txt').send('other').expect(201);
    await dav(app(), 'COPY', '/dav/src/a.txt').set('Destination', '/dav/other.txt').set('Overwrite', 'F').expect(412);
    await dav(app(), 'COPY', '/dav/src/a.txt').set('Destination', '/dav/other.txt').set('Overwrite', 'T').expect(204);
    expect((await dav(app(), 'GET', '/dav/other.txt').expect(200)).text).toBe('aaa');
    await dav(app(), 'MOVE', '/dav/src/sub').set('Destination', '/dav/other.txt').expect(204);
    expect(at('other.txt')!.kind).toBe('container');
  });

  it('MOVE renames in place: the same REST id, now under the new name and parent', async () => {
    await tree();
    const id = at('src', 'a.txt')!.id;
    await dav(app(), 'MOVE', '/dav/src/a.txt').set('Destination', '/dav/src/sub/renamed.txt').expect(201);
    const rest = await cloud.client.get(`/v2/files/${id}`).expect(200);
    expect(rest.text).toContain('<name>renamed.txt</name>');
    expect(rest.text).toContain(`/v2/containers/${at('src', 'sub')!.id}`);
    await dav(app(), 'GET', '/dav/src/a.txt').expect(404);
  });

  it('refuses a missing destination parent (409), the same resource (403), and a collection into itself (409)', async () => {
    await tree();
    await dav(app(), 'COPY', '/dav/src/a.txt').set('Destination', '/dav/nonesuch/a.txt').expect(409);
    await dav(app(), 'MOVE', '/dav/src/a.txt').set('Destination', '/dav/src/a.txt').expect(403);
    await dav(app(), 'MOVE', '/dav/src').set('Destination', '/dav/src/sub/inside').expect(409);
    await dav(app(), 'COPY', '/dav/src').set('Destination', '/dav/src/sub/inside').expect(409);
    await dav(app(), 'MOVE', '/dav/src/sub').set('Destination', '/dav/src').expect(409);
    await dav(app(), 'COPY', '/dav/missing').set('Destination', '/dav/x').expect(404);
  });
});
