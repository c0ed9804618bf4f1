import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { AUTH, pathOf, readXml, useCloud } from '../../helpers/cloud.js';
import { dav } from '../dav/dav-helpers.js';
import { MezeoSyncClient, localTree, remoteTree, type ClientBuild, type NqEvent } from './mezeo-sync-client.js';

const brief = (events: NqEvent[]): string[] =>
  events.map(
    (e) =>
      `${e.cdmi_event} ${e.objectType === 'application/cdmi-container' ? 'dir' : 'file'} ${e.metadata.mezeo_exported_path}`,
  );

describe("the service's own sync client, request for request (CDMI notification queues)", () => {
  const cloud = useCloud();

  async function signedIn(build: ClientBuild = '950c339'): Promise<MezeoSyncClient> {
    const client = new MezeoSyncClient(cloud.client.app, AUTH.user, AUTH.password, build);
    expect(await client.signIn()).not.toBeNull();
    await client.checkAndCreateNotificationQueue();
    return client;
  }

  it('login, the management GET, a missing queue (404) then its creation, length, values, delete: the exact sequence', async () => {
    const client = await signedIn();
    expect(client.login.managementUri).toBe('http://127.0.0.1:8080/cdmi/demo');
    expect(client.login.namespaceUri).toBe('http://127.0.0.1:8080/v2/namespace');
    expect(client.login.nqParentUri).toBe('/cdmi/demo');
    expect(client.requests).toEqual([
      'GET /v2',
      'GET /cdmi/demo',
      'GET /cdmi/demo/0019B9F1A2C3-demo?queueValues',
      'PUT /cdmi/demo/0019B9F1A2C3-demo',
    ]);
    // A new queue holds nothing: its range is empty, the client reads a length of 0.
    expect(await client.nqGetLength()).toEqual({ status: -3, length: 0 });

    const root = await cloud.client.rootPath();
    await cloud.client.createContainer(root, 'Docs');
    expect(await client.nqGetLength()).toEqual({ status: 200, length: 1 });
    const [event] = await client.nqGetData(1);
    expect(event).toMatchObject({
      cdmi_event: 'cdmi_create_complete',
      cdmi_event_result: 'cdmi_success',
      cdmi_event_user: 'demo',
      objectName: 'Docs',
      objectType: 'application/cdmi-container',
      parentURI: '/cdmi/demo/',
      domainURI: '/cdmi_domains/',
      metadata: { mezeo_exported_path: 'Docs', cdmi_size: '0', cdmi_hash: '' },
    });
    expect(event!.parentID).toBe(pathOf(`http://x${root}`).split('/').pop());
    expect(Number.isNaN(Date.parse(event!.cdmi_event_time))).toBe(false);
    expect(await client.nqDeleteValue(1)).toBe(204);
    expect(await client.nqGetLength()).toEqual({ status: -3, length: 0 });

    // A second login finds the queue: no new PUT.
    const again = await signedIn();
    expect(again.requests.filter((r) => r.startsWith('PUT'))).toEqual([]);
  });

  it.each<ClientBuild>(['950c339', '7e22b40'])(
    'the incremental loop of build %s: each change by a second client through REST or WebDAV is one event, applied through the namespace reads, and the local tree ends as the remote one',
    async (build) => {
      const client = await signedIn(build);
      const other = cloud.client;
      const app = other.app;
      const root = await other.rootPath();
      const steps: Array<[string, () => Promise<unknown>, string]> = [
        ['REST create folder', () => other.createContainer(root, 'Docs'), 'cdmi_create_complete dir Docs'],
        [
          'REST upload',
          async () => other.uploadFile(await folder('Docs'), 'a.txt', 'one'),
          'cdmi_create_complete file Docs/a.txt',
        ],
        [
          'REST replace content',
          async () =>
            other
              .put(`${await file('Docs/a.txt')}/content`)
              .send('two')
              .expect(204),
          'cdmi_modify_complete file Docs/a.txt',
        ],
        ['DAV MKCOL', () => dav(app, 'MKCOL', '/dav/Music').expect(201), 'cdmi_create_complete dir Music'],
        [
          'DAV PUT new',
          () => dav(app, 'PUT', '/dav/Music/song%20one.txt').send('la').expect(201),
          'cdmi_create_complete file Music/song one.txt',
        ],
        [
          'DAV PUT over',
          () => dav(app, 'PUT', '/dav/Music/song%20one.txt').send('la la').expect(204),
          'cdmi_modify_complete file Music/song one.txt',
        ],
        [
          'REST rename folder',
          async () =>
            other
              .put(await folder('Docs'))
              .set('Content-Type', 'application/vnd.csp.container-info+xml')
              .send('<container><name>Papers</name></container>')
              .expect(204),
          'cdmi_rename dir Papers',
        ],
        [
          'DAV MOVE file into the renamed folder',
          () => dav(app, 'MOVE', '/dav/Music/song%20one.txt').set('Destination', '/dav/Papers/song.txt').expect(201),
          'cdmi_rename file Papers/song.txt',
        ],
        [
          'DAV COPY folder',
          () => dav(app, 'COPY', '/dav/Papers').set('Destination', '/dav/Copy').expect(201),
          'cdmi_create_complete dir Copy',
        ],
        [
          'REST copy file',
          async () =>
            other
              .post(await file('Papers/a.txt'))
              .set('Content-Location', await folder('Music'))
              .expect(201),
          'cdmi_create_complete file Music/a.txt',
        ],
        [
          'REST delete file',
          async () => other.delete(await file('Papers/a.txt')).expect(204),
          'cdmi_delete file Papers/a.txt',
        ],
        ['DAV DELETE folder', () => dav(app, 'DELETE', '/dav/Copy').expect(204), 'cdmi_delete dir Copy'],
      ];
      for (const [what, change, expected] of steps) {
        await change();
        const events = await client.syncOnce();
        expect(brief(events), what).toEqual([expected]);
        expect(localTree(client), what).toEqual(await remoteTree(app, AUTH.user, AUTH.password));
      }
      expect(await client.nqGetLength()).toEqual({ status: -3, length: 0 });

      async function folder(path: string): Promise<string> {
        const res = await other.get(`/v2/namespace/${path}`).expect(200);
        return pathOf(readXml(res.text).container.contents['@_xlink:href']).replace(/\/contents$/, '');
      }
      async function file(path: string): Promise<string> {
        const res = await other.get(`/v2/namespace/${path}`).expect(200);
        return `/v2/files/${idOfFile(res.text)}`;
      }
    },
  );

  it('the newest build (7e22b40) syncs a file inside a folder with a space: the event carries the path unencoded, and the read of it URL-encoded whole (%2f between names) answers 200', async () => {
    const client = await signedIn('7e22b40');
    const root = await cloud.client.rootPath();
    const folder = await cloud.client.createContainer(root, 'My Docs');
    await cloud.client.uploadFile(folder, 'read me+(1).txt', 'hello');
    const first = client.requests.length;
    const events = await client.syncOnce();
    expect(events.map((e) => [e.metadata.mezeo_exported_path, e.parentURI, e.objectName])).toEqual([
      ['My Docs', '/cdmi/demo/', 'My Docs'],
      ['My Docs/read me+(1).txt', '/cdmi/demo/My Docs/', 'read me+(1).txt'],
    ]);
    const reads = client.requests.slice(first).filter((r) => r.startsWith('GET /v2/namespace/'));
    expect(reads).toEqual(['GET /v2/namespace/My%20Docs', 'GET /v2/namespace/My%20Docs%2fread%20me%2b(1).txt']);
    expect(localTree(client)).toEqual(
      new Map([
        ['My Docs', { kind: 'DIRECTORY' }],
        ['My Docs/read me+(1).txt', { kind: 'FILE', content: 'hello' }],
      ]),
    );
    expect(localTree(client)).toEqual(await remoteTree(cloud.client.app, AUTH.user, AUTH.password));
  });

  it('several changes before one loop arrive in commit order, and applied in order reproduce the remote tree', async () => {
    const client = await signedIn();
    const other = cloud.client;
    const root = await other.rootPath();
    const docs = await other.createContainer(root, 'Docs');
    const a = await other.uploadFile(docs, 'a.txt', 'one');
    await dav(other.app, 'PUT', '/dav/Docs/b.txt').send('bee').expect(201);
    await dav(other.app, 'PUT', '/dav/Docs/b.txt').send('bee bee').expect(204);
    await other.delete(a).expect(204);
    const events = await client.syncOnce();
    expect(brief(events)).toEqual([
      'cdmi_create_complete dir Docs',
      'cdmi_create_complete file Docs/a.txt',
      'cdmi_create_complete file Docs/b.txt',
      'cdmi_modify_complete file Docs/b.txt',
      'cdmi_delete file Docs/a.txt',
    ]);
    expect(localTree(client)).toEqual(await remoteTree(other.app, AUTH.user, AUTH.password));
  });

  it("another user's changes never reach a queue, and another user's queue container is 404", async () => {
    const client = await signedIn();
    await request(cloud.client.app).get('/cdmi/someone-else/q?queueValues').auth(AUTH.user, AUTH.password).expect(404);
    expect(await client.nqGetLength()).toEqual({ status: -3, length: 0 });
  });
});

function idOfFile(xml: string): string {
  return /files\/([^"/]+)\/content"/.exec(xml)![1]!;
}
