import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { binaryParser, pathOf, readXml, useCloud } from '../../helpers/cloud.js';
import { basic, listenOnLoopback, rawExchange } from '../../helpers/raw-http.js';

const FILE_INFO = 'application/vnd.csp.file-info+xml';
const FILE_FIELDS = [
  'name',
  'created',
  'inproject',
  'modified',
  'owner',
  'version',
  'shared',
  'accessed',
  'public',
  'mime_type',
  'bytes',
  'content',
  'parent',
  'permissions',
  'tags',
  'metadata',
  'thumbnail',
];
const png = readFileSync(new URL('../../fixtures/red-2x2.png', import.meta.url));

describe('creating files (rows 3 and 4, rules 1 and 2)', () => {
  const cloud = useCloud();

  it('row 3: POST file-info creates the file without content and answers 201 with /v2/files/<id>', async () => {
    const root = await cloud.client.rootPath();
    const res = await cloud.client
      .post(`${root}/contents`)
      .set('Content-Type', FILE_INFO)
      .send('<file><name>empty.txt</name><mime_type>text/plain</mime_type><public>false</public></file>')
      .expect(201);
    expect(res.text).toMatch(/\/v2\/files\/[^/\s]+\r\n$/);
    const file = pathOf(res.text.trim());
    const el = readXml((await cloud.client.get(file).expect(200)).text).file;
    expect(el.bytes).toBe('0');
    expect(el.mime_type).toBe('text/plain');
    const content = await cloud.client.get(`${file}/content`).expect(200);
    expect(content.text).toBe('');
  });

  it('GET file returns the fields in the order of the real service; public is written true/false', async () => {
    const root = await cloud.client.rootPath();
    const res = await cloud.client
      .post(`${root}/contents`)
      .set('Content-Type', FILE_INFO)
      .send('<file><name>p.txt</name><mime_type>text/plain</mime_type><public>True</public></file>')
      .expect(201);
    const body = (await cloud.client.get(pathOf(res.text.trim())).expect(200)).text;
    expect(body.startsWith('<file')).toBe(true);
    const el = readXml(body).file;
    expect(Object.keys(el).filter((k) => !k.startsWith('@_'))).toEqual(FILE_FIELDS);
    expect(el.public).toBe('true');
    expect(el.content['@_xlink:href']).toMatch(/\/content$/);
  });

  it('row 4: multipart/form-data with a part named file creates the file with its content (201)', async () => {
    const root = await cloud.client.rootPath();
    const res = await cloud.client
      .post(`${root}/contents`)
      .attach('file', png, { filename: 'red.png', contentType: 'image/png' })
      .expect(201);
    expect(res.text).toMatch(/\/v2\/files\/[^/\s]+\r\n$/);
    const file = pathOf(res.text.trim());
    const el = readXml((await cloud.client.get(file)).text).file;
    expect([el.name, el.mime_type, el.bytes]).toEqual(['red.png', 'image/png', String(png.length)]);
    const content = await cloud.client.get(`${file}/content`).buffer(true).parse(binaryParser).expect(200);
    expect(Buffer.compare(content.body as Buffer, png)).toBe(0);
  });

  it.each([['Filedata'], ['photo.png'], ['anything']])(
    'row 4: any single file part is the upload (part named %s)',
    async (field) => {
      const root = await cloud.client.rootPath();
      await cloud.client.uploadFile(root, 'photo.png', png, field);
      expect(await cloud.client.childNames(root)).toEqual(['photo.png']);
    },
  );

  it('stores a filename sent with a path ("\\name" or "dir/name") as its last segment', async () => {
    const root = await cloud.client.rootPath();
    await cloud.client.uploadFile(root, '\\report.txt', 'r');
    await cloud.client.uploadFile(root, 'C:\\Users\\me\\notes.txt', 'n');
    expect(await cloud.client.childNames(root)).toEqual(['notes.txt', 'report.txt']);
  });

  it('stores a part with an empty Content-Type, guessing the type from the name', async () => {
    const root = await cloud.client.rootPath();
    const boundary = 'XyZ123';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="doc.txt"\r\nContent-Type: \r\n\r\n`,
      ),
      Buffer.from('plain words'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await cloud.client
      .post(`${root}/contents`)
      .set('Content-Type', `multipart/form-data; boundary=${boundary}`)
      .send(body)
      .expect(201);
    const el = readXml((await cloud.client.get(pathOf(res.text.trim()))).text).file;
    expect([el.name, el.bytes, el.mime_type]).toEqual(['doc.txt', '11', 'text/plain']);
  });

  it('ignores extra text fields beside the file part', async () => {
    const root = await cloud.client.rootPath();
    await cloud.client
      .post(`${root}/contents`)
      .field('comment', 'hi')
      .attach('file', Buffer.from('x'), 'x.txt')
      .expect(201);
    expect(await cloud.client.childNames(root)).toEqual(['x.txt']);
  });

  it('rule 2: the two-step alternative, file-info then PUT content, gives the same file', async () => {
    const root = await cloud.client.rootPath();
    const res = await cloud.client
      .post(`${root}/contents`)
      .set('Content-Type', FILE_INFO)
      .send('<file><name>two-step.png</name><mime_type>image/png</mime_type><public>false</public></file>')
      .expect(201);
    const file = pathOf(res.text.trim());
    await cloud.client.put(`${file}/content`).set('Content-Type', 'application/octet-stream').send(png).expect(204);
    const content = await cloud.client.get(`${file}/content`).buffer(true).parse(binaryParser).expect(200);
    expect(Buffer.compare(content.body as Buffer, png)).toBe(0);
  });

  it('rule 1: only ContainerContents accepts a multipart POST (415 on a file, on a container)', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'a.txt', 'a');
    await cloud.client
      .post(file)
      .attach('file', Buffer.from('x'), 'x.txt')
      .expect(415)
      .expect('Content-Type', 'text/plain; charset=UTF-8');
    await cloud.client.post(root).attach('file', Buffer.from('x'), 'x.txt').expect(415);
  });

  it('refuses a multipart body without a file part, with two file parts, or without a boundary (400)', async () => {
    const root = await cloud.client.rootPath();
    await cloud.client.post(`${root}/contents`).field('comment', 'no file').expect(400);
    await cloud.client
      .post(`${root}/contents`)
      .attach('file', Buffer.from('1'), 'one.txt')
      .attach('file2', Buffer.from('2'), 'two.txt')
      .expect(400);
    await cloud.client.post(`${root}/contents`).set('Content-Type', 'multipart/form-data').send('--x\r\n').expect(400);
    expect(await cloud.client.childNames(root)).toEqual([]);
  });

  it('refuses a truncated multipart body (400) and keeps serving', async () => {
    const root = await cloud.client.rootPath();
    const body = '--B\r\nContent-Disposition: form-data; name="file"; filename="cut.txt"\r\n\r\nhalf a bo';
    const res = await cloud.client
      .post(`${root}/contents`)
      .set('Content-Type', 'multipart/form-data; boundary=B')
      .send(body);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(await cloud.client.childNames(root)).toEqual([]);
    await cloud.client.get('/v2').expect(200);
  });

  it('duplicate upload name in the same container answers 422 and keeps the first content', async () => {
    const root = await cloud.client.rootPath();
    const first = await cloud.client.uploadFile(root, 'same.txt', 'first');
    await cloud.client.post(`${root}/contents`).attach('file', Buffer.from('second'), 'same.txt').expect(422);
    expect((await cloud.client.get(`${first}/content`)).text).toBe('first');
  });
});

describe('rule 4: Expect: 100-continue on POST', () => {
  const cloud = useCloud();
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  it('answers 100 Continue before the final 201', async () => {
    const server = await listenOnLoopback(cloud.client.app);
    close = server.close;
    const root = await cloud.client.rootPath();
    const entity = '<container><name>continued</name></container>';
    let sentBody = false;
    const { received } = await rawExchange(
      server.port,
      [
        `POST ${root}/contents HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${basic('demo', 'demo')}\r\n` +
          `X-Client-Specification: 2\r\nContent-Type: application/vnd.csp.container-info+xml\r\n` +
          `Content-Length: ${Buffer.byteLength(entity)}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
      ],
      3000,
      (all, socket) => {
        // Send the body only once the interim answer has arrived, as a real client does.
        if (!sentBody && all.toString().startsWith('HTTP/1.1 100 Continue')) {
          sentBody = true;
          socket.write(entity);
        }
      },
    );
    const text = received.toString();
    expect(text.startsWith('HTTP/1.1 100 Continue\r\n')).toBe(true);
    expect(text).toMatch(/HTTP\/1\.1 201 Created/);
    expect(await cloud.client.childNames(root)).toEqual(['continued']);
  });
});
