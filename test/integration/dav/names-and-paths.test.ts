import { describe, expect, it } from 'vitest';
import { CloudClient, readXml, useCloud } from '../../helpers/cloud.js';
import { dav, propfindBody, readMultistatus } from './dav-helpers.js';

const ODD_NAMES = [
  'with space.txt',
  '100% sure.txt',
  'hash#tag.txt',
  'semi;colon.txt',
  'Ünïcödé ñame.txt',
  '日本語.txt',
  'plus+sign.txt',
  "quote's.txt",
];

/** The child names of the root container, through REST. */
async function restRootNames(client: CloudClient): Promise<string[]> {
  return client.childNames(await client.rootPath());
}

describe('WebDAV names, paths and users', () => {
  const cloud = useCloud({ seed: 'empty', users: { demo: 'demo', other: 'secret' } });
  const app = () => cloud.client.app;

  it('names written through /dav come out of /v2 exactly, and the hrefs decode back to them', async () => {
    for (const name of ODD_NAMES) {
      await dav(app(), 'PUT', `/dav/${encodeURIComponent(name)}`)
        .send(name)
        .expect(201);
    }
    expect((await restRootNames(cloud.client)).sort()).toEqual([...ODD_NAMES].sort());
    const res = await dav(app(), 'PROPFIND', '/dav/').set('Depth', '1').send(propfindBody('displayname')).expect(207);
    const hrefs = readMultistatus(res.text)
      .map((e) => e.href)
      .filter((h) => h !== '/dav/');
    expect(hrefs.map((h) => decodeURIComponent(h.slice('/dav/'.length))).sort()).toEqual([...ODD_NAMES].sort());
  });

  it('names created through /v2 are reachable at their /dav address (rule 2)', async () => {
    const root = await cloud.client.rootPath();
    const dir = await cloud.client.createContainer(root, 'Dossier à #1; 50%');
    const created = await cloud.client
      .post(`${dir}/contents`)
      .set('Content-Type', 'application/vnd.csp.file-info+xml')
      .send('<file><name>Résumé final.txt</name><mime_type>text/plain</mime_type><public>false</public></file>')
      .expect(201);
    await cloud.client
      .put(`${new URL(created.text.trim()).pathname}/content`)
      .send(Buffer.from('bonjour'))
      .expect(204);
    const res = await dav(
      app(),
      'GET',
      `/dav/${encodeURIComponent('Dossier à #1; 50%')}/${encodeURIComponent('Résumé final.txt')}`,
    ).expect(200);
    expect(res.text).toBe('bonjour');
  });

  it('NFD and NFC spellings of a name address the same object', async () => {
    await dav(app(), 'PUT', `/dav/${encodeURIComponent('caf\u00e9.txt')}`)
      .send('x')
      .expect(201);
    await dav(app(), 'GET', `/dav/${encodeURIComponent('cafe\u0301.txt')}`).expect(200);
  });

  it('traversal never leaves the tree: "..", "%2e%2e", backslashes and encoded slashes are 400', async () => {
    await dav(app(), 'MKCOL', '/dav/a').expect(201);
    for (const path of [
      '/dav/a/%2e%2e/%2e%2e/etc',
      '/dav/a/%2E%2E',
      '/dav/a%5C..%5Cx',
      '/dav/a%2Fb',
      '/dav/a/.%2e/x',
    ]) {
      const res = await dav(app(), 'PUT', path).send('x');
      expect(res.status, path).toBe(400);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
    }
    // URL parsing folds an encoded ".." in a Destination, which then lies outside /dav: refused.
    const copy = await dav(app(), 'COPY', '/dav/a').set('Destination', '/dav/%2e%2e/x');
    expect([400, 502]).toContain(copy.status);
    expect(cloud.client.mock.store.resolvePath('demo', ['x'])).toBeUndefined();
    await dav(app(), 'PROPFIND', '/dav/a/../../').set('Depth', '0').expect(400);
  });

  it('each user sees only their own tree, with the same credentials as /v2', async () => {
    const other = { user: 'other', password: 'secret' };
    await dav(app(), 'PUT', '/dav/mine.txt').send('demo data').expect(201);
    await dav(app(), 'GET', '/dav/mine.txt', other).expect(404);
    await dav(app(), 'PUT', '/dav/mine.txt', other).send('other data').expect(201);
    expect((await dav(app(), 'GET', '/dav/mine.txt').expect(200)).text).toBe('demo data');
    expect((await dav(app(), 'GET', '/dav/mine.txt', other).expect(200)).text).toBe('other data');
    const account = readXml((await cloud.client.get('/v2/account').expect(200)).text)['account-info'];
    expect(account.username).toBe('demo');
  });

  it('answers unknown methods with 405 and the Allow list', async () => {
    const res = await dav(app(), 'PATCH', '/dav/').expect(405);
    expect(res.headers['allow']).toContain('PROPFIND');
  });
});
