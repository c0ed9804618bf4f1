import { describe, expect, it } from 'vitest';
import { binaryParser, useCloud } from '../../helpers/cloud.js';

describe('WebDAV GET over the same store (rules 2 and 3 of "What the service does", row 10)', () => {
  const cloud = useCloud();

  it('row 10 / rule 2: an object created through REST is reachable at /dav/<container names>/<file name>', async () => {
    const root = await cloud.client.rootPath();
    const a = await cloud.client.createContainer(root, 'Work');
    const b = await cloud.client.createContainer(a, 'Q3 reports');
    const bytes = Buffer.from([0, 1, 2, 3, 250, 251]);
    await cloud.client.uploadFile(b, 'summary.bin', bytes);
    const res = await cloud.client
      .get('/dav/Work/Q3%20reports/summary.bin')
      .buffer(true)
      .parse(binaryParser)
      .expect(200);
    expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);
  });

  it('rule 3: the content follows REST changes and carries the same ETag as the REST content', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'note.txt', 'v1');
    await cloud.client.put(`${file}/content`).send(Buffer.from('v2')).expect(204);
    const dav = await cloud.client.get('/dav/note.txt').expect(200);
    const rest = await cloud.client.get(`${file}/content`).expect(200);
    expect(dav.text).toBe('v2');
    expect(dav.headers['etag']).toBe(rest.headers['etag']);
  });

  it('names with spaces, %, #, ; and non-ASCII letters resolve when percent-encoded', async () => {
    const root = await cloud.client.rootPath();
    const name = 'ünï 50% #1; ok.txt';
    await cloud.client.uploadFile(root, name, 'odd');
    expect((await cloud.client.get(`/dav/${encodeURIComponent(name)}`).expect(200)).text).toBe('odd');
  });

  it('404 for missing paths and deleted objects; traversal segments are refused (400)', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'x.txt', 'x');
    await cloud.client.get('/dav/missing.txt').expect(404);
    await cloud.client.delete(file).expect(204);
    await cloud.client.get('/dav/x.txt').expect(404);
    await cloud.client.get('/dav/a/%2e%2e/x.txt').expect(400);
    await cloud.client.get('/dav/a%2fb').expect(400);
  });
});
