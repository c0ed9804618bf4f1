import { afterEach, describe, expect, it, vi } from 'vitest';
import { readXml, useCloud } from '../../helpers/cloud.js';
import { dav } from './dav-helpers.js';

const lockinfo = (scope: 'exclusive' | 'shared', owner = 'tester') =>
  `<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:${scope}/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>${owner}</D:owner></D:lockinfo>`;

describe('WebDAV LOCK, UNLOCK and the If header', () => {
  const cloud = useCloud();
  const app = () => cloud.client.app;
  const store = () => cloud.client.mock.store;
  afterEach(() => vi.useRealTimers());

  async function lock(path: string, scope: 'exclusive' | 'shared' = 'exclusive', depth = '0', status = 200) {
    const res = await dav(app(), 'LOCK', path)
      .set('Depth', depth)
      .set('Timeout', 'Second-600')
      .send(lockinfo(scope))
      .expect(status);
    return /^<(.+)>$/.exec(res.headers['lock-token']!)![1]!;
  }

  it('an exclusive lock answers the lockdiscovery with token, owner, depth, timeout and root', async () => {
    await dav(app(), 'PUT', '/dav/f.txt').send('x').expect(201);
    const res = await dav(app(), 'LOCK', '/dav/f.txt')
      .set('Depth', '0')
      .set('Timeout', 'Second-600')
      .send(lockinfo('exclusive', '<D:href>mailto:me@example.test</D:href>'))
      .expect(200);
    const token = /^<(.+)>$/.exec(res.headers['lock-token']!)![1]!;
    expect(token).toMatch(/^opaquelocktoken:/);
    const active = readXml(res.text)['D:prop']['D:lockdiscovery']['D:activelock'];
    expect(active['D:locktoken']['D:href']).toBe(token);
    expect(active['D:lockscope']).toHaveProperty('D:exclusive');
    expect(active['D:depth']).toBe('0');
    expect(active['D:timeout']).toBe('Second-600');
    expect(active['D:lockroot']['D:href']).toBe('/dav/f.txt');
    expect(active['D:owner']['href']['#text']).toBe('mailto:me@example.test');
    expect(active['D:owner']['href']['@_xmlns']).toBe('DAV:');
  });

  it('a locked resource refuses writes without the token (423) and accepts them with it; reads are never blocked', async () => {
    await dav(app(), 'PUT', '/dav/f.txt').send('x').expect(201);
    const token = await lock('/dav/f.txt');
    await dav(app(), 'PUT', '/dav/f.txt').send('y').expect(423);
    await dav(app(), 'DELETE', '/dav/f.txt').expect(423);
    await dav(app(), 'MOVE', '/dav/f.txt').set('Destination', '/dav/g.txt').expect(423);
    await dav(app(), 'PROPPATCH', '/dav/f.txt')
      .send(
        '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x xmlns="urn:x">1</x></D:prop></D:set></D:propertyupdate>',
      )
      .expect(423);
    await dav(app(), 'GET', '/dav/f.txt').expect(200);
    await dav(app(), 'PROPFIND', '/dav/f.txt').set('Depth', '0').expect(207);
    await dav(app(), 'COPY', '/dav/f.txt').set('Destination', '/dav/copy.txt').expect(201);
    await dav(app(), 'PUT', '/dav/f.txt').set('If', `(<${token}>)`).send('y').expect(204);
    await dav(app(), 'PUT', '/dav/f.txt')
      .set('If', `<http://127.0.0.1/dav/f.txt> (<${token}>)`)
      .set('Host', '127.0.0.1')
      .send('z')
      .expect(204);
  });

  it('REST writes respect WebDAV locks: 423 while locked, allowed after UNLOCK', async () => {
    await dav(app(), 'MKCOL', '/dav/dir').expect(201);
    await dav(app(), 'PUT', '/dav/dir/f.txt').send('x').expect(201);
    const fileId = store().resolvePath('demo', ['dir', 'f.txt'])!.id;
    const dirId = store().resolvePath('demo', ['dir'])!.id;
    const token = await lock('/dav/dir/', 'exclusive', 'infinity');
    await cloud.client.put(`/v2/files/${fileId}/content`).send(Buffer.from('rest')).expect(423);
    await cloud.client.delete(`/v2/files/${fileId}`).expect(423);
    await cloud.client
      .post(`/v2/containers/${dirId}/contents`)
      .set('Content-Type', 'application/vnd.csp.container-info+xml')
      .send('<container><name>new</name></container>')
      .expect(423);
    await cloud.client.get(`/v2/files/${fileId}/content`).expect(200);
    await dav(app(), 'UNLOCK', '/dav/dir/').set('Lock-Token', `<${token}>`).expect(204);
    await cloud.client.put(`/v2/files/${fileId}/content`).send(Buffer.from('rest')).expect(204);
  });

  it('REST renames, moves, copies into, tags and metadata of locked objects are refused with 423', async () => {
    await dav(app(), 'MKCOL', '/dav/locked').expect(201);
    await dav(app(), 'MKCOL', '/dav/free').expect(201);
    await dav(app(), 'PUT', '/dav/free/f.txt').send('x').expect(201);
    await dav(app(), 'PUT', '/dav/g.txt').send('x').expect(201);
    const lockedId = store().resolvePath('demo', ['locked'])!.id;
    const fileId = store().resolvePath('demo', ['free', 'f.txt'])!.id;
    const gId = store().resolvePath('demo', ['g.txt'])!.id;
    await lock('/dav/locked', 'exclusive', 'infinity');
    await lock('/dav/g.txt');
    const fileInfo = (body: string) =>
      cloud.client.put(`/v2/files/${fileId}`).set('Content-Type', 'application/vnd.csp.file-info+xml').send(body);
    await fileInfo(
      `<file><name>f.txt</name><parent xlink:href="/v2/containers/${lockedId}" xmlns:xlink="http://www.w3.org/1999/xlink"/></file>`,
    ).expect(423);
    await cloud.client.post(`/v2/files/${fileId}`).set('Content-Location', `/v2/containers/${lockedId}`).expect(423);
    await cloud.client
      .put(`/v2/files/${gId}`)
      .set('Content-Type', 'application/vnd.csp.file-info+xml')
      .send('<file><name>renamed.txt</name></file>')
      .expect(423);
    await cloud.client.put(`/v2/files/${gId}/metadata/colour`).send('blue').expect(423);
    await cloud.client.put(`/v2/files/${gId}/tags/urgent`).expect(423);
    await fileInfo('<file><name>still-free.txt</name></file>').expect(204);
  });

  it('a depth-infinity collection lock covers members: new members need the token, lockdiscovery shows it', async () => {
    await dav(app(), 'MKCOL', '/dav/dir').expect(201);
    const token = await lock('/dav/dir', 'exclusive', 'infinity');
    await dav(app(), 'PUT', '/dav/dir/new.txt').send('x').expect(423);
    await dav(app(), 'PUT', '/dav/dir/new.txt').set('If', `(<${token}>)`).send('x').expect(201);
    const res = await dav(app(), 'PROPFIND', '/dav/dir/new.txt')
      .set('Depth', '0')
      .send('<D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/></D:prop></D:propfind>')
      .expect(207);
    expect(res.text).toContain(token);
    expect(res.text).toContain('<D:lockroot><D:href>/dav/dir/</D:href></D:lockroot>');
  });

  it('shared locks coexist; an exclusive lock conflicts with either (423)', async () => {
    await dav(app(), 'PUT', '/dav/f.txt').send('x').expect(201);
    const one = await lock('/dav/f.txt', 'shared');
    const two = await lock('/dav/f.txt', 'shared');
    expect(one).not.toBe(two);
    await dav(app(), 'LOCK', '/dav/f.txt').send(lockinfo('exclusive')).expect(423);
    await dav(app(), 'PUT', '/dav/f.txt').set('If', `(<${two}>)`).send('y').expect(204);
  });

  it('refresh: LOCK without a body and with If renews the timeout; a wrong token is 412', async () => {
    await dav(app(), 'PUT', '/dav/f.txt').send('x').expect(201);
    const token = await lock('/dav/f.txt');
    const res = await dav(app(), 'LOCK', '/dav/f.txt')
      .set('If', `(<${token}>)`)
      .set('Timeout', 'Second-1200')
      .expect(200);
    expect(readXml(res.text)['D:prop']['D:lockdiscovery']['D:activelock']['D:timeout']).toBe('Second-1200');
    await dav(app(), 'LOCK', '/dav/f.txt').set('If', '(<opaquelocktoken:nope>)').expect(412);
  });

  it('a lock expires after its timeout', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    await dav(app(), 'PUT', '/dav/f.txt').send('x').expect(201);
    await lock('/dav/f.txt');
    await dav(app(), 'PUT', '/dav/f.txt').send('y').expect(423);
    vi.setSystemTime(Date.now() + 601_000);
    await dav(app(), 'PUT', '/dav/f.txt').send('y').expect(204);
  });

  it('LOCK on an unmapped URL creates an empty file (201), visible through REST', async () => {
    await lock('/dav/new.txt', 'exclusive', '0', 201);
    const node = store().resolvePath('demo', ['new.txt'])!;
    expect(node.bytes).toBe(0);
    await cloud.client.get(`/v2/files/${node.id}`).expect(200);
    await dav(app(), 'LOCK', '/dav/missing/new.txt').send(lockinfo('exclusive')).expect(409);
  });

  it('UNLOCK with a token that is not a lock on the resource is 409; a missing Lock-Token 400', async () => {
    await dav(app(), 'PUT', '/dav/f.txt').send('x').expect(201);
    await dav(app(), 'PUT', '/dav/g.txt').send('x').expect(201);
    const token = await lock('/dav/f.txt');
    await dav(app(), 'UNLOCK', '/dav/g.txt').set('Lock-Token', `<${token}>`).expect(409);
    await dav(app(), 'UNLOCK', '/dav/f.txt').set('Lock-Token', '<opaquelocktoken:bogus>').expect(409);
    await dav(app(), 'UNLOCK', '/dav/f.txt').expect(400);
    await dav(app(), 'UNLOCK', '/dav/f.txt').set('Lock-Token', `<${token}>`).expect(204);
  });

  it('If header: ETags, Not, several lists; a false header is 412, a malformed one 400', async () => {
    const { headers } = await dav(app(), 'PUT', '/dav/f.txt').send('x').expect(201);
    const etag = headers['etag']!;
    const token = await lock('/dav/f.txt');
    await dav(app(), 'PUT', '/dav/f.txt').set('If', `(<DAV:no-lock> [${etag}])`).send('y').expect(412);
    await dav(app(), 'PUT', '/dav/f.txt').set('If', `(<${token}x>) (Not <DAV:no-lock>)`).send('y').expect(423);
    await dav(app(), 'PUT', '/dav/f.txt')
      .set('If', `(<${token}> ["wrong"]) (Not <DAV:no-lock> ["wrong"])`)
      .send('y')
      .expect(412);
    await dav(app(), 'PUT', '/dav/f.txt')
      .set('If', `(<${token}> [${etag}]) (Not <DAV:no-lock> [${etag}])`)
      .send('y')
      .expect(204);
    await dav(app(), 'PUT', '/dav/f.txt').set('If', `(<${token}>`).send('y').expect(400);
    await dav(app(), 'PUT', '/dav/g.txt').set('If', '(Not <DAV:no-lock>)').send('y').expect(201);
  });

  it('MOVE does not take the lock along; COPY does not copy it', async () => {
    await dav(app(), 'PUT', '/dav/f.txt').send('x').expect(201);
    const token = await lock('/dav/f.txt');
    await dav(app(), 'COPY', '/dav/f.txt').set('Destination', '/dav/c.txt').expect(201);
    await dav(app(), 'PUT', '/dav/c.txt').send('free').expect(204);
    await dav(app(), 'MOVE', '/dav/f.txt').set('Destination', '/dav/m.txt').set('If', `(<${token}>)`).expect(201);
    await dav(app(), 'PUT', '/dav/m.txt').send('free').expect(204);
  });
});
