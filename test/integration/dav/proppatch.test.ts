import { describe, expect, it } from 'vitest';
import { useCloud } from '../../helpers/cloud.js';
import { dav, readMultistatus } from './dav-helpers.js';

const NS = 'http://example.com/ns/';
const patch = (body: string) =>
  `<?xml version="1.0" encoding="utf-8"?><D:propertyupdate xmlns:D="DAV:" xmlns:x="${NS}">${body}</D:propertyupdate>`;
const ask = (...names: string[]) =>
  `<D:propfind xmlns:D="DAV:" xmlns:x="${NS}"><D:prop>${names.map((n) => `<x:${n}/>`).join('')}</D:prop></D:propfind>`;

describe('WebDAV PROPPATCH and dead properties', () => {
  const cloud = useCloud();
  const app = () => cloud.client.app;
  const store = () => cloud.client.mock.store;

  async function file(path = '/dav/f.txt') {
    await dav(app(), 'PUT', path).send('x').expect(201);
  }

  it('sets dead properties, answers 207 with 200 per property, and returns them on PROPFIND', async () => {
    await file();
    const res = await dav(app(), 'PROPPATCH', '/dav/f.txt')
      .send(patch('<D:set><D:prop><x:colour>blue &amp; green</x:colour><x:size unit="cm">12</x:size></D:prop></D:set>'))
      .expect(207);
    const [entry] = readMultistatus(res.text);
    expect(entry!.props['colour']!.status).toBe(200);
    expect(entry!.props['size']!.status).toBe(200);
    const got = await dav(app(), 'PROPFIND', '/dav/f.txt').set('Depth', '0').send(ask('colour', 'size')).expect(207);
    expect(got.text).toContain(`<colour xmlns="${NS}">blue &amp; green</colour>`);
    expect(got.text).toContain(`<size xmlns="${NS}" unit="cm">12</size>`);
  });

  it('keeps them in the store under Clark names, so they persist with the node', async () => {
    await file();
    await dav(app(), 'PROPPATCH', '/dav/f.txt').send(patch('<D:set><D:prop><x:k>v</x:k></D:prop></D:set>')).expect(207);
    const node = store().resolvePath('demo', ['f.txt'])!;
    expect(node.deadProps[`{${NS}}k`]).toBe(`<k xmlns="${NS}">v</k>`);
  });

  it('applies set and remove in document order', async () => {
    await file();
    await dav(app(), 'PROPPATCH', '/dav/f.txt')
      .send(
        patch('<D:set><D:prop><x:a>1</x:a><x:b>2</x:b></D:prop></D:set><D:remove><D:prop><x:a/></D:prop></D:remove>'),
      )
      .expect(207);
    const got = readMultistatus(
      (await dav(app(), 'PROPFIND', '/dav/f.txt').set('Depth', '0').send(ask('a', 'b')).expect(207)).text,
    )[0]!;
    expect(got.props['a']!.status).toBe(404);
    expect(got.props['b']).toEqual({ status: 200, value: '2' });
  });

  it('keeps values with nested elements, other namespaces and characters above U+FFFF', async () => {
    await file();
    await dav(app(), 'PROPPATCH', '/dav/f.txt')
      .send(
        patch(
          '<D:set><D:prop><x:tree><y:leaf xmlns:y="urn:y" y:at="1">&#65536;</y:leaf><plain xmlns=""/></x:tree></D:prop></D:set>',
        ),
      )
      .expect(207);
    const got = await dav(app(), 'PROPFIND', '/dav/f.txt').set('Depth', '0').send(ask('tree')).expect(207);
    expect(got.text).toContain(
      `<tree xmlns="${NS}"><leaf xmlns="urn:y" xmlns:a0="urn:y" a0:at="1">\u{10000}</leaf><plain xmlns=""/></tree>`,
    );
  });

  it('refuses to set a live property: 403 for it, 424 for the rest, nothing applied', async () => {
    await file();
    const res = await dav(app(), 'PROPPATCH', '/dav/f.txt')
      .send(patch('<D:set><D:prop><D:getetag>"x"</D:getetag><x:other>1</x:other></D:prop></D:set>'))
      .expect(207);
    const [entry] = readMultistatus(res.text);
    expect(entry!.props['D:getetag']!.status).toBe(403);
    expect(entry!.props['other']!.status).toBe(424);
    expect(res.text).toContain('cannot-modify-protected-property');
    expect(store().resolvePath('demo', ['f.txt'])!.deadProps).toEqual({});
  });

  it('moves and copies dead properties with their resource, also a Depth 0 collection copy', async () => {
    await dav(app(), 'MKCOL', '/dav/dir').expect(201);
    await file('/dav/dir/f.txt');
    for (const path of ['/dav/dir', '/dav/dir/f.txt']) {
      await dav(app(), 'PROPPATCH', path)
        .send(patch('<D:set><D:prop><x:tag>kept</x:tag></D:prop></D:set>'))
        .expect(207);
    }
    await dav(app(), 'MOVE', '/dav/dir').set('Destination', '/dav/moved').expect(201);
    await dav(app(), 'COPY', '/dav/moved').set('Destination', '/dav/copy').expect(201);
    await dav(app(), 'COPY', '/dav/moved').set('Destination', '/dav/shallow').set('Depth', '0').expect(201);
    for (const path of ['/dav/moved/f.txt', '/dav/copy/f.txt', '/dav/copy/', '/dav/shallow/']) {
      const got = await dav(app(), 'PROPFIND', path).set('Depth', '0').send(ask('tag')).expect(207);
      expect(readMultistatus(got.text)[0]!.props['tag'], path).toEqual({ status: 200, value: 'kept' });
    }
    await dav(app(), 'PROPFIND', '/dav/shallow/f.txt').set('Depth', '0').expect(404);
  });

  it('answers 400 to a body that is not a propertyupdate, and 404 on a missing resource', async () => {
    await file();
    await dav(app(), 'PROPPATCH', '/dav/f.txt').send('<D:propfind xmlns:D="DAV:"/>').expect(400);
    await dav(app(), 'PROPPATCH', '/dav/f.txt').send('<oops').expect(400);
    await dav(app(), 'PROPPATCH', '/dav/none').send(patch('')).expect(404);
  });
});
