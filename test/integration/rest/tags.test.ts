import { describe, expect, it } from 'vitest';
import { asArray, pathOf, readXml, useCloud } from '../../helpers/cloud.js';
import { only } from '../../helpers/xml-documents.js';

const TAG_INFO = 'application/vnd.csp.tag-info+xml';

describe('tags (rows 7, 8, 9; applying a tag is inferred)', () => {
  const cloud = useCloud();

  async function tagged(): Promise<{ root: string; file: string; folder: string }> {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'beach.jpg', 'jpeg bytes');
    const folder = await cloud.client.createContainer(root, 'Trips');
    await cloud.client
      .post(`${file}/tags`)
      .set('Content-Type', TAG_INFO)
      .send('<tag><name>holiday</name></tag>')
      .expect(201);
    await cloud.client.put(`${folder}/tags/holiday`).expect(204);
    await cloud.client.put(`${folder}/tags/2026`).expect(204);
    return { root, file, folder };
  }

  it('row 7: GET /v2/tags lists the tags in use with count/start/total and one tag link each', async () => {
    await tagged();
    const res = await cloud.client.get('/v2/tags').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.csp\.tag-list\+xml/);
    const tags = readXml(res.text).tags;
    expect([tags['@_count'], tags['@_start'], tags['@_total']]).toEqual(['2', '0', '2']);
    const hrefs = asArray(tags.tag).map((t) => t['@_xlink:href']);
    expect(hrefs.map((h) => pathOf(h))).toEqual(['/v2/tags/2026', '/v2/tags/holiday']);
    for (const t of asArray(tags.tag)) expect(t['@_xlink:type']).toBe('simple');
  });

  it('row 7: pages the tags with ?start&count', async () => {
    await tagged();
    const tags = readXml((await cloud.client.get('/v2/tags?start=1&count=1')).text).tags;
    expect([tags['@_count'], tags['@_start'], tags['@_total']]).toEqual(['1', '1', '2']);
    expect(pathOf(only(tags.tag)['@_xlink:href'])).toBe('/v2/tags/holiday');
  });

  it('row 8: GET /v2/tags/<name> returns the tag with its name and objects link', async () => {
    await tagged();
    const res = await cloud.client.get('/v2/tags/holiday').expect(200);
    const tag = readXml(res.text).tag;
    expect(tag.name).toBe('holiday');
    expect(pathOf(tag.objects['@_xlink:href'])).toBe('/v2/tags/holiday/objects');
    expect(tag.objects['@_xlink:type']).toBe('simple');
  });

  it('row 9: GET /v2/tags/<name>/objects lists the tagged objects (the fixed behaviour; the fault is a scenario)', async () => {
    const { file, folder } = await tagged();
    const res = await cloud.client.get('/v2/tags/holiday/objects').expect(200);
    const list = readXml(res.text)['file-list'];
    expect(list['@_total']).toBe('2');
    expect(pathOf(only(list.file)['@_xlink:href'])).toBe(file);
    expect(pathOf(only(list.container)['@_xlink:href'])).toBe(folder);
  });

  it('an unknown tag is 404 for the tag and its objects', async () => {
    await cloud.client.get('/v2/tags/none').expect(404);
    await cloud.client.get('/v2/tags/none/objects').expect(404);
  });

  it("lists an object's own tags at its tags link; DELETE removes one; an unused tag leaves /v2/tags", async () => {
    const { file } = await tagged();
    const own = readXml((await cloud.client.get(`${file}/tags`).expect(200)).text).tags;
    expect(pathOf(only(own.tag)['@_xlink:href'])).toBe('/v2/tags/holiday');
    await cloud.client.delete(`${file}/tags/holiday`).expect(204);
    await cloud.client.delete(`${file}/tags/holiday`).expect(404);
    const objects = readXml((await cloud.client.get('/v2/tags/holiday/objects')).text)['file-list'];
    expect(objects['@_total']).toBe('1');
  });

  it('refuses a tag with an empty name (400) and a tag entity of the wrong media type (415)', async () => {
    const { file } = await tagged();
    await cloud.client.post(`${file}/tags`).set('Content-Type', TAG_INFO).send('<tag><name></name></tag>').expect(400);
    await cloud.client.post(`${file}/tags`).set('Content-Type', 'text/plain').send('holiday').expect(415);
  });

  it('tags of a deleted object are no longer in use', async () => {
    const { file, folder } = await tagged();
    await cloud.client.delete(file).expect(204);
    await cloud.client.delete(folder).expect(204);
    const tags = readXml((await cloud.client.get('/v2/tags')).text).tags;
    expect(tags['@_total']).toBe('0');
  });

  it('encodes tag names with spaces and non-ASCII letters in links, and finds them again', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'f.txt', 'x');
    await cloud.client
      .post(`${file}/tags`)
      .set('Content-Type', TAG_INFO)
      .send('<tag><name>été 2026</name></tag>')
      .expect(201);
    const href = only(readXml((await cloud.client.get('/v2/tags')).text).tags.tag)['@_xlink:href'];
    expect(href).toMatch(/\/v2\/tags\/%C3%A9t%C3%A9%202026$/);
    expect(readXml((await cloud.client.get(pathOf(href))).text).tag.name).toBe('été 2026');
  });
});
