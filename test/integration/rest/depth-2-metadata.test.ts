import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareXml, parseOrdered } from '../../../src/recording/xml-compare.js';
import { useCloud } from '../../helpers/cloud.js';

/** The real service's answer to GET /v2/files/<id> with X-Cloud-Depth: 2 after PUT …/metadata/Foo (issue 11, ids shortened). */
const CAPTURED = readFileSync(new URL('../../fixtures/rest/depth-2-file-metadata.xml', import.meta.url), 'utf8');
const BASE = 'http://127.0.0.1:8080';

/** Every <metadata …>…</metadata> link element of a body, in document order. */
function metadataElements(body: string): string[] {
  return [...body.matchAll(/<metadata [^>]*?(?:\/>|>.*?<\/metadata>)/gs)].map((m) => m[0]);
}

const idOf = (path: string) => path.split('/').pop()!;

describe('depth-2 entities carry their metadata items (issue 11, item 4)', () => {
  const cloud = useCloud();

  async function putMetadata(resource: string, key: string, value: string) {
    await cloud.client
      .put(`${resource}/metadata/${encodeURIComponent(key)}`)
      .set('Content-Type', 'text/plain')
      .send(value)
      .expect(204);
  }

  it('a file at X-Cloud-Depth 2 has the captured real-service shape, element for element', async () => {
    const file = await cloud.client.uploadFile(await cloud.client.rootPath(), 'a.txt', 'a');
    await putMetadata(file, 'Foo', 'bar');
    const body = (await cloud.client.get(file).set('X-Cloud-Depth', '2').expect(200)).text;
    const expected = CAPTURED.replaceAll('https://host', BASE).replaceAll('9E4C…', idOf(file));
    const [ours] = metadataElements(body);
    expect(compareXml(parseOrdered(expected)!, parseOrdered(ours!)!)).toEqual([]);
    expect(body).toMatch(/<public>(true|false)<\/public>/); // booleans stay true/false
  });

  it('below depth 2 the metadata link stays empty', async () => {
    const file = await cloud.client.uploadFile(await cloud.client.rootPath(), 'a.txt', 'a');
    await putMetadata(file, 'Foo', 'bar');
    for (const depth of ['0', '1']) {
      const [ours] = metadataElements((await cloud.client.get(file).set('X-Cloud-Depth', depth).expect(200)).text);
      expect(ours).toBe(`<metadata xlink:href="${BASE}${file}/metadata" xlink:type="simple"/>`);
    }
  });

  it('a container at depth 2 lists its keys (sorted, percent-encoded), and so does each inline child', async () => {
    const root = await cloud.client.rootPath();
    const box = await cloud.client.createContainer(root, 'box');
    const inner = await cloud.client.createContainer(box, 'inner');
    const file = await cloud.client.uploadFile(box, 'f.txt', 'f');
    await putMetadata(box, 'zeta', '1');
    await putMetadata(box, 'a key', '2');
    await putMetadata(inner, 'colour', 'red');
    await putMetadata(file, 'Foo', 'bar');
    const body = (await cloud.client.get(box).set('X-Cloud-Depth', '2').expect(200)).text;
    const item = (path: string, key: string) =>
      `<metadata-item xlink:href="${BASE}${path}/metadata/${key}" xlink:type="simple"/>`;
    const elements = metadataElements(body);
    expect(elements).toHaveLength(3); // the inline container, the inline file, the container itself
    expect(elements).toContain(
      `<metadata xlink:href="${BASE}${inner}/metadata" xlink:type="simple">${item(inner, 'colour')}</metadata>`,
    );
    expect(elements).toContain(
      `<metadata xlink:href="${BASE}${file}/metadata" xlink:type="simple">${item(file, 'Foo')}</metadata>`,
    );
    expect(elements).toContain(
      `<metadata xlink:href="${BASE}${box}/metadata" xlink:type="simple">${item(box, 'a%20key')}${item(box, 'zeta')}</metadata>`,
    );
  });

  it('a depth-2 contents listing carries the keys of each wrapped entity', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'f.txt', 'f');
    await putMetadata(file, 'Foo', 'bar');
    const body = (await cloud.client.get(`${root}/contents`).set('X-Cloud-Depth', '2').expect(200)).text;
    expect(metadataElements(body)).toEqual([
      `<metadata xlink:href="${BASE}${file}/metadata" xlink:type="simple"><metadata-item xlink:href="${BASE}${file}/metadata/Foo" xlink:type="simple"/></metadata>`,
    ]);
  });
});
