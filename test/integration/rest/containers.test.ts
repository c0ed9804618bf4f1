import { describe, expect, it } from 'vitest';
import { asArray, pathOf, readXml, useCloud } from '../../helpers/cloud.js';
import { only } from '../../helpers/xml-documents.js';

const CONTAINER_INFO = 'application/vnd.csp.container-info+xml';
const CONTAINER_FIELDS = [
  'name',
  'created',
  'inproject',
  'modified',
  'owner',
  'version',
  'shared',
  'accessed',
  'bytes',
  'contents',
  'tags',
  'metadata',
  'parent',
];

describe('containers (row 2, rule 5)', () => {
  const cloud = useCloud();

  it('row 2: POST container-info to contents answers 201 with the new container address + CRLF and a Location', async () => {
    const root = await cloud.client.rootPath();
    const res = await cloud.client
      .post(`${root}/contents`)
      .set('Content-Type', CONTAINER_INFO)
      .send('<container><name>Projects</name></container>')
      .expect(201);
    expect(res.text).toMatch(/^http:\/\/[^/]+\/v2\/containers\/[^/\s]+\r\n$/);
    expect(res.headers['location']).toBe(res.text.trim());
    expect(res.headers['content-type']).toBe('text/uri-list');
  });

  it('rule 5: the returned address is the parent of further creates (a container is addressed by its own /contents)', async () => {
    const root = await cloud.client.rootPath();
    const a = await cloud.client.createContainer(root, 'a');
    const b = await cloud.client.createContainer(a, 'b');
    const c = await cloud.client.createContainer(b, 'c');
    expect(await cloud.client.childNames(b)).toEqual(['c']);
    const res = await cloud.client.get(c).expect(200);
    expect(pathOf(readXml(res.text).container.parent['@_xlink:href'])).toBe(b);
  });

  it('GET container returns the fields in the order of the real service, with Unix-second timestamps and owner login', async () => {
    const root = await cloud.client.rootPath();
    const docs = await cloud.client.createContainer(root, 'Docs');
    const before = Math.floor(Date.now() / 1000);
    const res = await cloud.client.get(docs).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.csp\.container-info\+xml/);
    expect(res.text.startsWith('<container')).toBe(true);
    const el = readXml(res.text).container;
    expect(Object.keys(el).filter((k) => !k.startsWith('@_'))).toEqual(CONTAINER_FIELDS);
    expect(el.name).toBe('Docs');
    expect(el.owner).toBe('demo');
    expect(Number(el.created)).toBeGreaterThanOrEqual(before - 2);
    expect(String(el.created)).toMatch(/^\d+$/);
    expect(el.contents['@_xlink:href']).toMatch(new RegExp(`${docs}/contents$`));
    for (const link of ['contents', 'tags', 'metadata', 'parent'] as const)
      expect(el[link]['@_xlink:type']).toBe('simple');
  });

  it('the root container is named "/" and its parent link points to itself', async () => {
    const root = await cloud.client.rootPath();
    const el = readXml((await cloud.client.get(root).expect(200)).text).container;
    expect(el.name).toBe('/');
    expect(pathOf(el.parent['@_xlink:href'])).toBe(root);
  });

  it('bytes of a container is the total stored in its subtree', async () => {
    const root = await cloud.client.rootPath();
    const a = await cloud.client.createContainer(root, 'a');
    const b = await cloud.client.createContainer(a, 'b');
    await cloud.client.uploadFile(a, 'one.bin', Buffer.alloc(10));
    await cloud.client.uploadFile(b, 'two.bin', Buffer.alloc(32));
    expect(readXml((await cloud.client.get(a)).text).container.bytes).toBe('42');
  });

  it('X-Cloud-Depth 2 inlines the children unwrapped inside contents, with count/start/total', async () => {
    const root = await cloud.client.rootPath();
    const a = await cloud.client.createContainer(root, 'a');
    await cloud.client.createContainer(a, 'sub');
    await cloud.client.uploadFile(a, 'f.txt', 'hello');
    const el = readXml((await cloud.client.get(a).set('X-Cloud-Depth', '2').expect(200)).text).container;
    expect(el.contents['@_count']).toBe('2');
    expect(el.contents['@_total']).toBe('2');
    expect(only(el.contents.container).name).toBe('sub');
    expect(only(el.contents.container)['@_xlink:href']).toMatch(/\/v2\/containers\//);
    expect(only(el.contents.file).name).toBe('f.txt');
    expect(only(el.contents.file).bytes).toBe('5');
  });

  it('duplicate name in the same container answers 422; the same name elsewhere is fine', async () => {
    const root = await cloud.client.rootPath();
    const a = await cloud.client.createContainer(root, 'a');
    await cloud.client.createContainer(root, 'b');
    await cloud.client
      .post(`${root}/contents`)
      .set('Content-Type', CONTAINER_INFO)
      .send('<container><name>a</name></container>')
      .expect(422)
      .expect('Content-Type', 'text/plain; charset=UTF-8');
    await cloud.client.createContainer(a, 'a');
  });

  it('PUT container-info renames (204) and moves by <parent xlink:href> (204)', async () => {
    const root = await cloud.client.rootPath();
    const a = await cloud.client.createContainer(root, 'a');
    const b = await cloud.client.createContainer(root, 'b');
    await cloud.client
      .put(a)
      .set('Content-Type', CONTAINER_INFO)
      .send('<container><name>renamed</name></container>')
      .expect(204);
    expect(readXml((await cloud.client.get(a)).text).container.name).toBe('renamed');
    const href = `http://127.0.0.1${b}`;
    await cloud.client
      .put(a)
      .set('Content-Type', CONTAINER_INFO)
      .send(
        `<container xmlns:xlink="http://www.w3.org/1999/xlink"><name>renamed</name><parent xlink:href="${href}" xlink:type="simple"/></container>`,
      )
      .expect(204);
    expect(await cloud.client.childNames(root)).toEqual(['b']);
    expect(await cloud.client.childNames(b)).toEqual(['renamed']);
  });

  it('refuses to move a container into itself (409) and to rename onto a sibling (422)', async () => {
    const root = await cloud.client.rootPath();
    const a = await cloud.client.createContainer(root, 'a');
    const inner = await cloud.client.createContainer(a, 'inner');
    await cloud.client.createContainer(root, 'b');
    await cloud.client
      .put(a)
      .set('Content-Type', CONTAINER_INFO)
      .send(`<container><name>a</name><parent xlink:href="${inner}"/></container>`)
      .expect(409);
    await cloud.client
      .put(a)
      .set('Content-Type', CONTAINER_INFO)
      .send('<container><name>b</name></container>')
      .expect(422);
  });

  it('fields other than name and parent are ignored on PUT', async () => {
    const root = await cloud.client.rootPath();
    const a = await cloud.client.createContainer(root, 'a');
    await cloud.client
      .put(a)
      .set('Content-Type', CONTAINER_INFO)
      .send('<container><name>a2</name><owner>mallory</owner><bytes>99</bytes></container>')
      .expect(204);
    const el = readXml((await cloud.client.get(a)).text).container;
    expect([el.name, el.owner, el.bytes]).toEqual(['a2', 'demo', '0']);
  });

  it('lists containers first, then files, each by name', async () => {
    const root = await cloud.client.rootPath();
    await cloud.client.uploadFile(root, 'b.txt', 'b');
    await cloud.client.createContainer(root, 'z');
    await cloud.client.uploadFile(root, 'a.txt', 'a');
    await cloud.client.createContainer(root, 'm');
    expect(await cloud.client.childNames(root)).toEqual(['m', 'z', 'a.txt', 'b.txt']);
    const list = readXml((await cloud.client.get(`${root}/contents`)).text)['file-list'];
    expect(asArray(list.container)).toHaveLength(2);
  });
});
