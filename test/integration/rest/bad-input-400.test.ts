import { describe, expect, it } from 'vitest';
import { readXml, useCloud } from '../../helpers/cloud.js';

const FILE_INFO = 'application/vnd.csp.file-info+xml';
const BOUNDARY = 'csp-mock-boundary';

function multipart(partHeaders: string[], content = 'hello'): Buffer {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\n${partHeaders.join('\r\n')}\r\n\r\n`, 'utf8'),
    Buffer.from(content),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

describe('4xx, not 500, for bad input (issue 11, item 7)', () => {
  const cloud = useCloud();

  it('a copy whose Content-Location has bad percent-encoding (URIError) is 400', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'a.txt', 'a');
    const res = await cloud.client
      .post(file)
      .set('Content-Location', 'http://127.0.0.1:8080/v2/containers/%E0%A4%A')
      .expect(400);
    expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
  });

  it('a move whose parent href has bad percent-encoding is 400, and the file stays where it was', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'a.txt', 'a');
    await cloud.client
      .put(file)
      .set('Content-Type', FILE_INFO)
      .send('<file xmlns:xlink="http://www.w3.org/1999/xlink"><parent xlink:href="/v2/containers/%ZZ"/></file>')
      .expect(400);
    const parent = readXml((await cloud.client.get(file).expect(200)).text).file.parent['@_xlink:href'];
    expect(new URL(parent).pathname).toBe(root);
  });

  it('a multipart part with 2,000 headers is 400 and creates nothing', async () => {
    const root = await cloud.client.rootPath();
    const headers = ['Content-Disposition: form-data; name="file"; filename="many.txt"'];
    for (let i = 0; i < 2000; i++) headers.push(`X-Filler-${i}: ${i}`);
    await cloud.client
      .post(`${root}/contents`)
      .set('Content-Type', `multipart/form-data; boundary=${BOUNDARY}`)
      .send(multipart(headers))
      .expect(400);
    expect(await cloud.client.childNames(root)).toEqual([]);
  });

  it('a multipart filename holding a NUL is 400 and creates nothing', async () => {
    const root = await cloud.client.rootPath();
    for (const disposition of ['filename="nul\0.txt"', "filename*=UTF-8''nul%00.txt"]) {
      const res = await cloud.client
        .post(`${root}/contents`)
        .set('Content-Type', `multipart/form-data; boundary=${BOUNDARY}`)
        .send(multipart([`Content-Disposition: form-data; name="file"; ${disposition}`]));
      expect(res.status).toBe(400);
    }
    expect(await cloud.client.childNames(root)).toEqual([]);
  });
});
