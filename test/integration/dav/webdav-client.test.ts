import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type FileStat, type WebDAVClient } from 'webdav';
import { startMock, type RunningMock } from '../../../src/index.js';

const AUTH = { Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}`, 'X-Client-Specification': '2' };

describe('the npm webdav client against /dav', () => {
  let mock: RunningMock;
  let client: WebDAVClient;
  beforeEach(async () => {
    mock = await startMock({ seed: 'empty' });
    client = createClient(`${mock.url}/dav`, { username: 'demo', password: 'demo' });
  });
  afterEach(async () => {
    await mock.close();
  });
  const rest = (path: string) => fetch(`${mock.url}${path}`, { headers: AUTH });

  it('creates nested directories and files, lists and stats them with the REST ETag', async () => {
    await client.createDirectory('/Reports/2024 Q1', { recursive: true });
    await client.putFileContents('/Reports/2024 Q1/sales #1.csv', 'a,b\n1,2\n', { contentLength: false });
    const listing = (await client.getDirectoryContents('/Reports')) as FileStat[];
    expect(listing.map((e) => [e.basename, e.type])).toEqual([['2024 Q1', 'directory']]);
    const stat = (await client.stat('/Reports/2024 Q1/sales #1.csv')) as FileStat;
    expect(stat.size).toBe(8);
    const node = mock.store.resolvePath('demo', ['Reports', '2024 Q1', 'sales #1.csv'])!;
    const restContent = await rest(`/v2/files/${node.id}/content`);
    expect(`"${stat.etag}"`).toBe(restContent.headers.get('etag')); // the client strips the quotes
    expect(await restContent.text()).toBe('a,b\n1,2\n');
  });

  it('reads back binary content and answers exists()', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 255]);
    await client.putFileContents('/bin.dat', bytes);
    const back = (await client.getFileContents('/bin.dat')) as ArrayBuffer;
    expect(Buffer.from(back)).toEqual(bytes);
    expect(await client.exists('/bin.dat')).toBe(true);
    expect(await client.exists('/nope.dat')).toBe(false);
  });

  it('moves and copies files; REST sees the same ids and names', async () => {
    await client.createDirectory('/a');
    await client.putFileContents('/a/one.txt', 'one');
    const id = mock.store.resolvePath('demo', ['a', 'one.txt'])!.id;
    await client.moveFile('/a/one.txt', '/a/two.txt');
    await client.copyFile('/a/two.txt', '/three.txt');
    const moved = await rest(`/v2/files/${id}`);
    expect(await moved.text()).toContain('<name>two.txt</name>');
    expect(mock.store.resolvePath('demo', ['three.txt'])!.id).not.toBe(id);
    expect(await client.getFileContents('/three.txt', { format: 'text' })).toBe('one');
  });

  it('deletes into the recycle bin, as REST does', async () => {
    await client.putFileContents('/gone.txt', 'bye');
    const id = mock.store.resolvePath('demo', ['gone.txt'])!.id;
    await client.deleteFile('/gone.txt');
    expect(await client.exists('/gone.txt')).toBe(false);
    expect(await (await rest('/v2/recyclebin')).text()).toContain(id);
  });

  it('locks and unlocks; a REST write in between is refused with 423', async () => {
    await client.putFileContents('/locked.txt', 'v1');
    const id = mock.store.resolvePath('demo', ['locked.txt'])!.id;
    const lock = await client.lock('/locked.txt');
    expect(lock.token).toMatch(/^opaquelocktoken:/);
    const blocked = await fetch(`${mock.url}/v2/files/${id}/content`, { method: 'PUT', headers: AUTH, body: 'v2' });
    expect(blocked.status).toBe(423);
    await client.unlock('/locked.txt', lock.token);
    const allowed = await fetch(`${mock.url}/v2/files/${id}/content`, { method: 'PUT', headers: AUTH, body: 'v2' });
    expect(allowed.status).toBe(204);
    expect(await client.getFileContents('/locked.txt', { format: 'text' })).toBe('v2');
  });

  it('reports the quota of the account', async () => {
    await client.putFileContents('/q.bin', Buffer.alloc(1234));
    const quota = await client.getQuota();
    expect(quota).toMatchObject({ used: 1234 });
  });

  it('sets and reads dead properties with a custom PROPPATCH/PROPFIND', async () => {
    await client.putFileContents('/p.txt', 'x');
    const patch = await client.customRequest('/p.txt', {
      method: 'PROPPATCH',
      headers: { 'Content-Type': 'application/xml' },
      data: '<d:propertyupdate xmlns:d="DAV:" xmlns:o="urn:office"><d:set><d:prop><o:author>Zoë</o:author></d:prop></d:set></d:propertyupdate>',
    });
    expect(patch.status).toBe(207);
    const stat = (await client.stat('/p.txt', {
      details: true,
      data: '<d:propfind xmlns:d="DAV:" xmlns:o="urn:office"><d:prop><o:author/><d:getetag/></d:prop></d:propfind>',
    })) as { data: FileStat & { props: Record<string, unknown> } };
    expect(stat.data.props['author']).toBe('Zoë');
  });
});
