import { describe, expect, it } from 'vitest';
import { readXml, useCloud } from '../../helpers/cloud.js';
import { only } from '../../helpers/xml-documents.js';

describe('metadata (inferred), account and the other collections', () => {
  const cloud = useCloud();

  it('PUT <resource>/metadata/<key> stores the raw value; GET returns it raw; the list links each item', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'm.txt', 'm');
    await cloud.client.put(`${file}/metadata/colour`).set('Content-Type', 'text/plain').send('deep blue').expect(204);
    await cloud.client
      .put(`${root}/metadata/owner-note`)
      .set('Content-Type', 'text/plain')
      .send('root note')
      .expect(204);
    expect((await cloud.client.get(`${file}/metadata/colour`).expect(200)).text).toBe('deep blue');
    expect((await cloud.client.get(`${root}/metadata/owner-note`).expect(200)).text).toBe('root note');
    const list = readXml((await cloud.client.get(`${file}/metadata`).expect(200)).text).metadata;
    expect(only(list['metadata-item']).name).toBe('colour');
    expect(only(list['metadata-item'])['@_xlink:href']).toMatch(/\/metadata\/colour$/);
    await cloud.client.delete(`${file}/metadata/colour`).expect(204);
    await cloud.client.get(`${file}/metadata/colour`).expect(404);
  });

  it('GET /v2/account returns account-info with username, storage that follows the stored bytes, all below 2^31', async () => {
    const root = await cloud.client.rootPath();
    const before = readXml((await cloud.client.get('/v2/account').expect(200)).text)['account-info'];
    expect(before.username).toBe('demo');
    expect(before.storage.used).toBe('0');
    await cloud.client.uploadFile(root, 'big.bin', Buffer.alloc(1234));
    const after = readXml((await cloud.client.get('/v2/account')).text)['account-info'];
    expect(after.storage.used).toBe('1234');
    for (const v of [after.account_type, after.storage.allocated, after.storage.used, after.bandwidth.allocated]) {
      expect(Number(v)).toBeLessThan(2 ** 31);
      expect(String(v)).toMatch(/^\d+$/);
    }
    expect(Object.keys(after.s3)).toEqual(['authid', 'authkey']);
    expect(Object.keys(after.bandwidth)).toEqual(['allocated', 'total', 'public', 'private']);
  });

  it.each([['contacts'], ['shares'], ['projects'], ['metacontainers']] as const)(
    'GET /v2/%s answers a valid empty list',
    async (name) => {
      const res = await cloud.client.get(`/v2/${name}`).expect(200);
      const el = readXml(res.text)[name];
      expect([el['@_count'], el['@_start'], el['@_total']]).toEqual(['0', '0', '0']);
    },
  );

  it('file permissions link answers; thumbnail is 404 (the mock renders none)', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'p.txt', 'p');
    const perms = readXml((await cloud.client.get(`${file}/permissions`).expect(200)).text).permissions;
    expect(perms.owner).toBe('demo');
    await cloud.client.get(`${file}/thumbnail`).expect(404);
  });
});
