import { describe, expect, it } from 'vitest';
import { asArray, pathOf, readXml, useCloud } from '../../helpers/cloud.js';
import { only } from '../../helpers/xml-documents.js';

const FILE_INFO = 'application/vnd.csp.file-info+xml';

describe('rename, move, copy and delete (inferred from the notes)', () => {
  const cloud = useCloud();

  it('PUT file-info renames and sets public (true/false/True/False), answering 204', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'a.txt', 'a');
    for (const [given, expected] of [
      ['True', 'true'],
      ['false', 'false'],
      ['true', 'true'],
      ['False', 'false'],
    ]) {
      await cloud.client
        .put(file)
        .set('Content-Type', FILE_INFO)
        .send(`<file><name>b.txt</name><public>${given}</public></file>`)
        .expect(204);
      const el = readXml((await cloud.client.get(file)).text).file;
      expect([el.name, el.public]).toEqual(['b.txt', expected]);
    }
  });

  it('PUT file-info with <parent xlink:href> moves the file (204); the id and content stay', async () => {
    const root = await cloud.client.rootPath();
    const dest = await cloud.client.createContainer(root, 'dest');
    const file = await cloud.client.uploadFile(root, 'm.txt', 'moved');
    await cloud.client
      .put(file)
      .set('Content-Type', FILE_INFO)
      .send(
        `<file xmlns:xlink="http://www.w3.org/1999/xlink"><name>m.txt</name><parent xlink:href="http://127.0.0.1:8080${dest}" xlink:type="simple"/></file>`,
      )
      .expect(204);
    expect(await cloud.client.childNames(dest)).toEqual(['m.txt']);
    expect(pathOf(readXml((await cloud.client.get(file)).text).file.parent['@_xlink:href'])).toBe(dest);
    expect((await cloud.client.get(`${file}/content`)).text).toBe('moved');
  });

  it('PUT of an entity needs its own media type (415 otherwise) and a known parent (404)', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'x.txt', 'x');
    await cloud.client
      .put(file)
      .set('Content-Type', 'application/vnd.csp.container-info+xml')
      .send('<container><name>y</name></container>')
      .expect(415);
    await cloud.client
      .put(file)
      .set('Content-Type', FILE_INFO)
      .send('<file><name>x.txt</name><parent xlink:href="/v2/containers/nope"/></file>')
      .expect(404);
  });

  it('copy: POST the file with Content-Location naming the destination answers 201 with a new address', async () => {
    const root = await cloud.client.rootPath();
    const dest = await cloud.client.createContainer(root, 'copies');
    const file = await cloud.client.uploadFile(root, 'orig.txt', 'original');
    const res = await cloud.client.post(file).set('Content-Location', `http://127.0.0.1:8080${dest}`).expect(201);
    const copy = pathOf(res.text.trim());
    expect(copy).not.toBe(file);
    expect(res.headers['location']).toBe(res.text.trim());
    expect((await cloud.client.get(`${copy}/content`)).text).toBe('original');
    await cloud.client.put(`${copy}/content`).send(Buffer.from('changed')).expect(204);
    expect((await cloud.client.get(`${file}/content`)).text).toBe('original');
  });

  it('copy of a container copies its subtree; copying into the same container with the same name is 422', async () => {
    const root = await cloud.client.rootPath();
    const src = await cloud.client.createContainer(root, 'src');
    const inner = await cloud.client.createContainer(src, 'inner');
    await cloud.client.uploadFile(inner, 'deep.txt', 'deep');
    const dest = await cloud.client.createContainer(root, 'dest');
    const res = await cloud.client.post(src).set('Content-Location', dest).expect(201);
    const copy = pathOf(res.text.trim());
    expect(await cloud.client.childNames(copy)).toEqual(['inner']);
    await cloud.client.post(src).set('Content-Location', root).expect(422);
    await cloud.client.post(src).set('Content-Location', inner).expect(409);
    await cloud.client.post(src).expect(400);
  });

  it('DELETE answers 204, then the object is 404 and gone from its listing', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'gone.txt', 'g');
    const folder = await cloud.client.createContainer(root, 'folder');
    const inside = await cloud.client.uploadFile(folder, 'inside.txt', 'i');
    await cloud.client.delete(`${file}?n=1`).expect(204);
    await cloud.client.delete(folder).expect(204);
    await cloud.client.get(file).expect(404);
    await cloud.client.get(`${file}/content`).expect(404);
    await cloud.client.get(folder).expect(404);
    await cloud.client.get(inside).expect(404);
    await cloud.client.delete(file).expect(404);
    expect(await cloud.client.childNames(root)).toEqual([]);
  });

  it('the root container cannot be deleted (409)', async () => {
    await cloud.client.delete(await cloud.client.rootPath()).expect(409);
  });

  it('deleted objects go to the recycle bin with originalname and recycleddate; restore and purge work', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'bin.txt', 'b');
    const before = Math.floor(Date.now() / 1000);
    await cloud.client.delete(file).expect(204);
    const bin = readXml((await cloud.client.get('/v2/recyclebin').expect(200)).text).recyclebin;
    expect(bin['@_total']).toBe('1');
    const item = asArray(bin['recycled-item'])[0]!;
    expect(item.originalname).toBe('bin.txt');
    expect(Number(item.recycleddate)).toBeGreaterThanOrEqual(before - 2);
    const itemPath = pathOf(item['@_xlink:href']);
    // the name is free again while the old object sits in the bin
    await cloud.client.uploadFile(root, 'bin.txt', 'second');
    await cloud.client.post(itemPath).expect(422);
    await cloud.client.delete(itemPath).expect(204);
    await cloud.client.get(itemPath).expect(404);
    const empty = readXml((await cloud.client.get('/v2/recyclebin')).text).recyclebin;
    expect(empty['@_total']).toBe('0');
  });

  it('restore puts a recycled object back where it was', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'back.txt', 'back');
    await cloud.client.delete(file).expect(204);
    const bin = readXml((await cloud.client.get('/v2/recyclebin')).text).recyclebin;
    await cloud.client.post(pathOf(only(bin['recycled-item'])['@_xlink:href'])).expect(204);
    expect((await cloud.client.get(`${file}/content`).expect(200)).text).toBe('back');
  });
});
