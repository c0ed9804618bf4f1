import { describe, expect, it } from 'vitest';
import { asArray, binaryParser, readXml, useCloud } from '../../helpers/cloud.js';

describe('the demo tree of a default start', () => {
  const cloud = useCloud({});

  it('has containers, files of several types and tagged files, readable through REST and /dav', async () => {
    const root = await cloud.client.rootPath();
    expect(await cloud.client.childNames(root)).toEqual(['Documents', 'Music', 'Photos', 'hello.json']);
    const tags = readXml((await cloud.client.get('/v2/tags')).text).tags;
    expect(asArray(tags.tag).map((t) => new URL(t['@_xlink:href']).pathname)).toEqual([
      '/v2/tags/holiday',
      '/v2/tags/important',
    ]);
    const png = await cloud.client.get('/dav/Photos/sunset.png').buffer(true).parse(binaryParser).expect(200);
    expect((png.body as Buffer).subarray(1, 4).toString()).toBe('PNG');
    expect(png.headers['content-type']).toBe('image/png');
    const readme = await cloud.client.get('/dav/Documents/readme.txt').expect(200);
    expect(readme.text).toMatch(/demo/);
    const pdf = await cloud.client
      .get('/dav/Documents/Reports/q3-report.pdf')
      .buffer(true)
      .parse(binaryParser)
      .expect(200);
    expect((pdf.body as Buffer).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('reset() brings the demo tree back after changes', async () => {
    const root = await cloud.client.rootPath();
    await cloud.client.createContainer(root, 'Scratch');
    await cloud.client.delete(`${root}`).expect(409);
    await cloud.client.mock.reset();
    const newRoot = await cloud.client.rootPath();
    expect(await cloud.client.childNames(newRoot)).toEqual(['Documents', 'Music', 'Photos', 'hello.json']);
  });
});
