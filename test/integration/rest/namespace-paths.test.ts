import { describe, expect, it } from 'vitest';
import { readXml, useCloud } from '../../helpers/cloud.js';
import { dav } from '../dav/dav-helpers.js';

describe('GET <namespace container>/<path>: objects by path', () => {
  const cloud = useCloud();

  async function tree() {
    const root = await cloud.client.rootPath();
    const docs = await cloud.client.createContainer(root, 'Docs');
    const sub = await cloud.client.createContainer(docs, 'a b%');
    const file = await cloud.client.uploadFile(sub, 'r\u00e9sum\u00e9.txt', 'hello');
    return { root, docs, sub, file };
  }

  it('a file path answers the file entity exactly as its id address does, same ETag', async () => {
    const { file } = await tree();
    const byPath = await cloud.client
      .get('/v2/namespace/Docs/a%20b%25/r%C3%A9sum%C3%A9.txt')
      .set('Accept', 'application/vnd.csp.file-info+xml')
      .expect(200);
    const byId = await cloud.client.get(file).expect(200);
    expect(byPath.text).toBe(byId.text);
    expect(byPath.headers['etag']).toBe(byId.headers['etag']);
    expect(byPath.headers['content-type']).toMatch(/^application\/vnd\.csp\.file-info\+xml/);
    expect(readXml(byPath.text).file.name).toBe('r\u00e9sum\u00e9.txt');
  });

  it('a container path answers the container entity; the namespace itself is the root container', async () => {
    const { docs, root } = await tree();
    const byPath = await cloud.client.get('/v2/namespace/Docs/').set('X-Cloud-Depth', '2').expect(200);
    const byId = await cloud.client.get(docs).set('X-Cloud-Depth', '2').expect(200);
    expect(byPath.text).toBe(byId.text);
    const top = await cloud.client.get('/v2/namespace').expect(200);
    expect(top.text).toBe((await cloud.client.get(root).expect(200)).text);
  });

  it('If-None-Match with the ETag answers 304, as on the id address', async () => {
    await tree();
    const first = await cloud.client.get('/v2/namespace/Docs').expect(200);
    await cloud.client.get('/v2/namespace/Docs').set('If-None-Match', first.headers['etag']!).expect(304);
  });

  it("a path that names nothing, a deleted object or another user's is 404", async () => {
    const { file } = await tree();
    await cloud.client.get('/v2/namespace/Docs/missing.txt').expect(404);
    await cloud.client.delete(file).expect(204);
    await cloud.client.get('/v2/namespace/Docs/a%20b%25/r%C3%A9sum%C3%A9.txt').expect(404);
  });

  it('".." and bad percent-encoding are refused with 400, writes with 405', async () => {
    await tree();
    await cloud.client.get('/v2/namespace/Docs/%2E%2E/Docs').expect(400);
    await cloud.client.get('/v2/namespace/%E0%A4%A').expect(400);
    const put = await cloud.client.put('/v2/namespace/Docs').send('x').expect(405);
    expect(put.headers['allow']).toContain('GET');
  });

  it('%2F and %2f are separators in a namespace read (the sync client encodes a whole path), and only there', async () => {
    const { file } = await tree();
    const byId = await cloud.client.get(file).expect(200);
    for (const path of ['Docs%2Fa%20b%25%2Fr%C3%A9sum%C3%A9.txt', 'Docs%2fa%20b%25/r%C3%A9sum%C3%A9.txt']) {
      const byPath = await cloud.client.get(`/v2/namespace/${path}`).expect(200);
      expect(byPath.text, path).toBe(byId.text);
    }
    await cloud.client.get('/v2/namespace/Docs%2f..%2fDocs').expect(400);
    await dav(cloud.client.app, 'GET', '/dav/Docs%2Fa%20b%25/r%C3%A9sum%C3%A9.txt').expect(400);
  });
});
