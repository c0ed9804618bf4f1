import { describe, expect, it } from 'vitest';
import { asArray, readXml, useCloud } from '../../helpers/cloud.js';

async function fill(client: ReturnType<typeof useCloud>['client'], root: string): Promise<void> {
  await client.createContainer(root, 'Pictures');
  await client.createContainer(root, 'Music');
  for (const name of ['pie.txt', 'apple.txt', 'PIN.txt', 'zebra.txt']) await client.uploadFile(root, name, name);
}

describe('GET contents: the file-list (inferred from the notes)', () => {
  const cloud = useCloud();

  it('answers a file-list with count/start/total and container/file links', async () => {
    const root = await cloud.client.rootPath();
    await fill(cloud.client, root);
    const res = await cloud.client.get(`${root}/contents`).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.csp\.file-list\+xml/);
    expect(res.text.startsWith('<file-list')).toBe(true);
    const list = readXml(res.text)['file-list'];
    expect([list['@_count'], list['@_start'], list['@_total']]).toEqual(['6', '0', '6']);
    const containers = asArray(list.container);
    const files = asArray(list.file);
    expect(containers).toHaveLength(2);
    expect(files).toHaveLength(4);
    for (const item of [...containers, ...files]) {
      expect(item['@_xlink:type']).toBe('simple');
      expect(Object.keys(item).filter((k) => !k.startsWith('@_'))).toEqual([]); // depth 0: links only
    }
    expect(containers[0]!['@_xlink:href']).toMatch(/\/v2\/containers\//);
    expect(files[0]!['@_xlink:href']).toMatch(/\/v2\/files\//);
  });

  it('X-Cloud-Depth 1 wraps one full entity inside each link element', async () => {
    const root = await cloud.client.rootPath();
    await fill(cloud.client, root);
    const list = readXml((await cloud.client.get(`${root}/contents`).set('X-Cloud-Depth', '1')).text)['file-list'];
    const file = asArray(list.file)[0]!;
    expect(file['@_xlink:href']).toMatch(/\/v2\/files\//);
    expect(file.file.name).toBe('apple.txt');
    expect(file.file.mime_type).toBe('text/plain');
    expect(asArray(list.container)[0]!.container.name).toBe('Music');
  });

  it('pages with ?start=N&count=M, total staying the full size', async () => {
    const root = await cloud.client.rootPath();
    await fill(cloud.client, root);
    const list = readXml((await cloud.client.get(`${root}/contents?start=1&count=3`).set('X-Cloud-Depth', '1')).text)[
      'file-list'
    ];
    expect([list['@_count'], list['@_start'], list['@_total']]).toEqual(['3', '1', '6']);
    const names = [...asArray(list.container), ...asArray(list.file)].map(
      (i) => ('container' in i ? i.container : i.file).name,
    );
    expect(names).toEqual(['Pictures', 'apple.txt', 'pie.txt']);
    const past = readXml((await cloud.client.get(`${root}/contents?start=10`)).text)['file-list'];
    expect([past['@_count'], past['@_total']]).toEqual(['0', '6']);
  });

  it('refuses a negative or non-numeric start/count (400 text/plain)', async () => {
    const root = await cloud.client.rootPath();
    await cloud.client.get(`${root}/contents?start=-1`).expect(400).expect('Content-Type', 'text/plain; charset=UTF-8');
    await cloud.client.get(`${root}/contents?count=ten`).expect(400);
  });

  it('filters by ?filterField=name&filterOperation=ILIKE&filterValue=Pi (case-insensitive substring)', async () => {
    const root = await cloud.client.rootPath();
    await fill(cloud.client, root);
    const list = readXml(
      (
        await cloud.client
          .get(`${root}/contents?filterField=name&filterOperation=ILIKE&filterValue=Pi&n=5`)
          .set('X-Cloud-Depth', '1')
      ).text,
    )['file-list'];
    const names = [...asArray(list.container), ...asArray(list.file)].map(
      (i) => ('container' in i ? i.container : i.file).name,
    );
    expect(names).toEqual(['Pictures', 'pie.txt', 'PIN.txt']);
    expect(list['@_total']).toBe('3');
  });

  it('carries an ETag; If-None-Match answers 304 until the contents change', async () => {
    const root = await cloud.client.rootPath();
    await fill(cloud.client, root);
    const etag = (await cloud.client.get(`${root}/contents`)).headers['etag'] as string;
    expect(etag).toBeTruthy();
    await cloud.client.get(`${root}/contents`).set('If-None-Match', etag).expect(304);
    await cloud.client.uploadFile(root, 'new.txt', 'n');
    await cloud.client.get(`${root}/contents`).set('If-None-Match', etag).expect(200);
  });

  it('ignores query parameters it does not know, on every GET', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'q.txt', 'q');
    for (const path of [
      `/v2?n=1`,
      `${root}?n=2&x=y`,
      `${root}/contents?n=3`,
      `${file}?n=4`,
      `${file}/content?cache=no`,
      `/v2/tags?n=6`,
    ]) {
      await cloud.client.get(path).expect(200);
    }
  });

  it('an empty container lists count 0', async () => {
    const root = await cloud.client.rootPath();
    const list = readXml((await cloud.client.get(`${root}/contents`)).text)['file-list'];
    expect([list['@_count'], list['@_total']]).toEqual(['0', '0']);
  });
});
