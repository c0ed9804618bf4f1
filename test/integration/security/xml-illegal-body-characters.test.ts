import { describe, expect, it } from 'vitest';
import { useCloud } from '../../helpers/cloud.js';
import { dav } from '../dav/dav-helpers.js';

/** Raw characters XML 1.0 cannot carry, as a client's encoder sends them (UTF-8). */
const ILLEGAL: Array<[string, string]> = [
  ['\uFFFE', 'U+FFFE'],
  ['\uFFFF', 'U+FFFF'],
  ['\u0001', 'U+0001'],
  ['\u001F', 'U+001F'],
];
const CONTAINER = 'application/vnd.csp.container-info+xml';
/** Characters a well-formed answer can never hold (U+FFFD stands in for an unpaired surrogate). */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

describe('an XML request body holding a character XML cannot carry answers 400 naming it', () => {
  const cloud = useCloud({ seed: 'empty' });
  const app = () => cloud.client.app;

  it('/v2: a create body with a raw U+FFFE, U+FFFF, U+0001 or U+001F is a 400 naming the character, and nothing is created', async () => {
    const root = await cloud.client.rootPath();
    for (const [char, named] of ILLEGAL) {
      const res = await cloud.client
        .post(`${root}/contents`)
        .set('Content-Type', CONTAINER)
        .send(Buffer.from(`<container><name>a${char}b</name></container>`));
      expect([named, res.status]).toEqual([named, 400]);
      expect(res.text).toContain(`the character ${named} (line 1, column 19) cannot appear in XML`);
    }
    expect(await cloud.client.childNames(root)).toEqual([]);
  });

  it('/v2: the bytes of an unpaired surrogate (UTF-8 and UTF-16) are a 400 saying the body is not valid in its encoding', async () => {
    const root = await cloud.client.rootPath();
    const utf8 = Buffer.concat([
      Buffer.from('<container><name>a'),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from('b</name></container>'),
    ]);
    const res8 = await cloud.client.post(`${root}/contents`).set('Content-Type', CONTAINER).send(utf8);
    expect(res8.status).toBe(400);
    expect(res8.text).toContain('not valid UTF-8');
    // UTF-16LE with its BOM, and one high surrogate with no low one after it.
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('<container><name>a', 'utf16le'),
      Buffer.from([0x00, 0xd8]),
      Buffer.from('b</name></container>', 'utf16le'),
    ]);
    const res16 = await cloud.client.post(`${root}/contents`).set('Content-Type', CONTAINER).send(utf16);
    expect(res16.status).toBe(400);
    expect(res16.text).toContain('not valid UTF-16');
    expect(await cloud.client.childNames(root)).toEqual([]);
  });

  it('/v2: a body holding a NUL is still binary: 500 with Connection: close, as the real service answered', async () => {
    const root = await cloud.client.rootPath();
    const res = await cloud.client
      .post(`${root}/contents`)
      .set('Content-Type', CONTAINER)
      .send(Buffer.from('<container><name>a\u0000b</name></container>'));
    expect(res.status).toBe(500);
    expect(res.headers.connection).toBe('close');
  });

  it('PROPPATCH: a value with a raw U+FFFE or U+0001 is a 400, nothing is stored, and the allprop PROPFIND stays well-formed', async () => {
    await dav(app(), 'PUT', '/dav/f.txt').send('x').expect(201);
    for (const [char, named] of ILLEGAL) {
      const body =
        '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop>' +
        `<Z:note>x${char}y</Z:note></D:prop></D:set></D:propertyupdate>`;
      const res = await dav(app(), 'PROPPATCH', '/dav/f.txt')
        .set('Content-Type', 'application/xml')
        .send(Buffer.from(body));
      expect([named, res.status]).toEqual([named, 400]);
      expect(res.text).toContain(named);
    }
    const all = await dav(app(), 'PROPFIND', '/dav/f.txt').set('Depth', '0').expect(207);
    expect(all.text).not.toContain('urn:z');
    expect(NOT_XML.test(all.text)).toBe(false);
  });

  it('LOCK: an owner with a raw U+FFFE or U+0001 is a 400 and takes no lock', async () => {
    await dav(app(), 'PUT', '/dav/f.txt').send('x').expect(201);
    for (const [char, named] of ILLEGAL) {
      const body =
        '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope>' +
        `<D:locktype><D:write/></D:locktype><D:owner>me${char}</D:owner></D:lockinfo>`;
      const res = await dav(app(), 'LOCK', '/dav/f.txt').set('Content-Type', 'application/xml').send(Buffer.from(body));
      expect([named, res.status]).toEqual([named, 400]);
      expect(res.text).toContain(named);
    }
    // Not locked: a PUT without a token succeeds, and the lock discovery is empty and well-formed.
    await dav(app(), 'PUT', '/dav/f.txt').send('y').expect(204);
    const discovery = await dav(app(), 'PROPFIND', '/dav/f.txt')
      .set('Depth', '0')
      .set('Content-Type', 'application/xml')
      .send('<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/></D:prop></D:propfind>')
      .expect(207);
    expect(discovery.text).not.toContain('activelock');
    expect(NOT_XML.test(discovery.text)).toBe(false);
  });

  it('PROPFIND: a raw U+FFFE in a comment of the body is a 400 too', async () => {
    await dav(app(), 'PUT', '/dav/f.txt').send('x').expect(201);
    const body = '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><!-- \uFFFE --><D:allprop/></D:propfind>';
    const res = await dav(app(), 'PROPFIND', '/dav/f.txt')
      .set('Content-Type', 'application/xml')
      .send(Buffer.from(body));
    expect(res.status).toBe(400);
    expect(res.text).toContain('U+FFFE');
  });
});
