import { describe, expect, it } from 'vitest';
import { useCloud } from '../../helpers/cloud.js';
import { dav } from '../dav/dav-helpers.js';

/** Characters XML 1.0 cannot carry: a name holding one would make every listing of its folder not well-formed. */
const ILLEGAL = ['a\uFFFEb.txt', 'a\uFFFFb.txt', 'a\uD800b.txt'];
/** The same names as an XML body would spell them with character references. */
const REFERENCED = ['a&#xFFFE;b.txt', 'a&#xFFFF;b.txt', 'a&#xD800;b.txt'];

describe('names with characters XML cannot carry are refused on every surface', () => {
  const cloud = useCloud({ seed: 'empty' });
  const app = () => cloud.client.app;

  it('/v2: creating a container or file, and renaming to such a name, answer 400 and change nothing', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'plain.txt', 'x');
    for (const [i, name] of ILLEGAL.entries()) {
      const xmlName = REFERENCED[i]!;
      const container = await cloud.client
        .post(`${root}/contents`)
        .set('Content-Type', 'application/vnd.csp.container-info+xml')
        .send(`<container><name>${xmlName}</name></container>`);
      expect([name, container.status, container.text]).toEqual([name, 400, container.text]);
      const rename = await cloud.client
        .put(file)
        .set('Content-Type', 'application/vnd.csp.file-info+xml')
        .send(`<file><name>${xmlName}</name></file>`);
      expect([name, rename.status, rename.text]).toEqual([name, 400, rename.text]);
      // (A lone surrogate cannot travel in a UTF-8 filename: the client's encoder sends U+FFFD, a legal name.)
      if (name.includes('\uD800')) continue;
      const upload = await cloud.client
        .post(`${root}/contents`)
        .attach('file', Buffer.from('x'), { filename: name, contentType: 'application/octet-stream' });
      expect([name, upload.status, upload.text]).toEqual([name, 400, upload.text]);
    }
    expect(await cloud.client.childNames(root)).toEqual(['plain.txt']);
  });

  it('/dav: PUT, MKCOL and MOVE to such a name are refused, and the folder PROPFIND stays well-formed', async () => {
    await dav(app(), 'PUT', '/dav/plain.txt').send('x').expect(201);
    // A lone surrogate as its (ill-formed) UTF-8 bytes, the others as their UTF-8.
    for (const raw of ['a%EF%BF%BEb.txt', 'a%EF%BF%BFb.txt', 'a%ED%A0%80b.txt']) {
      expect((await dav(app(), 'PUT', `/dav/${raw}`).send('x')).status).toBeGreaterThanOrEqual(400);
      expect((await dav(app(), 'MKCOL', `/dav/${raw}`)).status).toBeGreaterThanOrEqual(400);
      const move = await dav(app(), 'MOVE', '/dav/plain.txt').set('Destination', `http://127.0.0.1/dav/${raw}`);
      expect(move.status).toBeGreaterThanOrEqual(400);
    }
    const listing = await dav(app(), 'PROPFIND', '/dav/').set('Depth', '1').expect(207);
    expect(listing.text).toContain('plain.txt');
    expect(/[\uFFFE\uFFFF\uFFFD]/.test(listing.text)).toBe(false);
  });
});
