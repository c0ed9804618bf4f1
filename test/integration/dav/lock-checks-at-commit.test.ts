import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { SPEC, useCloud } from '../../helpers/cloud.js';
import { dav } from './dav-helpers.js';

const lockinfo = (scope: 'exclusive' | 'shared') =>
  `<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:${scope}/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>`;

describe('locks are checked by the store at commit, owner first', () => {
  const cloud = useCloud({ seed: 'empty', users: { demo: 'demo', eve: 'eve' } });
  const app = () => cloud.client.app;
  const store = () => cloud.client.mock.store;

  it('a refused LOCK on an unmapped URL leaves no file behind (RFC 4918 9.10.4; issue 11 item 5)', async () => {
    await dav(app(), 'MKCOL', '/dav/c').expect(201);
    const res = await dav(app(), 'LOCK', '/dav/c').set('Depth', 'infinity').send(lockinfo('exclusive')).expect(200);
    const token = /^<(.+)>$/.exec(res.headers['lock-token']!)![1]!;
    await dav(app(), 'LOCK', '/dav/c/new.txt')
      .set('If', `(<${token}>)`)
      .set('Depth', '0')
      .send(lockinfo('exclusive'))
      .expect(423);
    await dav(app(), 'GET', '/dav/c/new.txt').expect(404);
    const dirId = store().resolvePath('demo', ['c'])!.id;
    expect(await cloud.client.childNames(`/v2/containers/${dirId}`)).toEqual([]);
    // Granted, the same request creates the file (201) with its lock.
    await dav(app(), 'LOCK', '/dav/new.txt').set('Depth', '0').send(lockinfo('exclusive')).expect(201);
    await dav(app(), 'GET', '/dav/new.txt').expect(200);
  });

  it("another user's locked object answers 404 to REST writes, as an unknown id does (issue 11 item 9)", async () => {
    await dav(app(), 'PUT', '/dav/mine.txt').send('x').expect(201);
    await dav(app(), 'LOCK', '/dav/mine.txt').set('Depth', '0').send(lockinfo('exclusive')).expect(200);
    const id = store().resolvePath('demo', ['mine.txt'])!.id;
    const asEve = (method: 'put' | 'delete', path: string) => request(app())[method](path).auth('eve', 'eve').set(SPEC);
    await asEve('put', `/v2/files/${id}/content`).send(Buffer.from('y')).expect(404);
    await asEve('delete', `/v2/files/${id}`).expect(404);
    await asEve('put', `/v2/files/${id}/metadata/k`).send('v').expect(404);
    await asEve('put', `/v2/files/${id}/tags/t`).expect(404);
    await asEve('put', `/v2/files/unknown-id/content`).send(Buffer.from('y')).expect(404);
    await cloud.client.put(`/v2/files/${id}/content`).send(Buffer.from('y')).expect(423);
  });

  it('metadata key __proto__ round-trips over REST', async () => {
    await dav(app(), 'PUT', '/dav/f.txt').send('x').expect(201);
    const id = store().resolvePath('demo', ['f.txt'])!.id;
    await cloud.client.put(`/v2/files/${id}/metadata/__proto__`).send('v').expect(204);
    expect((await cloud.client.get(`/v2/files/${id}/metadata/__proto__`).expect(200)).text).toBe('v');
    await cloud.client.delete(`/v2/files/${id}/metadata/__proto__`).expect(204);
    await cloud.client.get(`/v2/files/${id}/metadata/__proto__`).expect(404);
  });
});
