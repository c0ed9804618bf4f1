import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { pathOf, readXml, useCloud } from '../../helpers/cloud.js';
import { DomainError } from '../../../src/domain/errors.js';
import { dav } from '../dav/dav-helpers.js';
import { openTestStore } from '../../helpers/stores.js';

const ALICE = { user: 'alice', password: 'alice-pw' };
const BOB = { user: 'bob', password: 'bob-pw' };
const SPEC = { 'X-Client-Specification': '2', Host: '127.0.0.1:8080' };
/** Shaped like a real id, naming nothing. */
const UNKNOWN = 'unknownUnknown00';
const LOCKINFO =
  '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>bob</D:owner></D:lockinfo>';
const CONTAINER_INFO = 'application/vnd.csp.container-info+xml';
const FILE_INFO = 'application/vnd.csp.file-info+xml';

type Method = 'get' | 'head' | 'put' | 'post' | 'delete';
interface Probe {
  name: string;
  method: Method;
  /** The path, with the other user's (or the unknown) id as `id`, alice's own ids given. */
  path: (id: Ids) => string;
  /** Sets headers and a body. */
  send?: (req: request.Test, id: Ids) => request.Test;
}
interface Ids {
  /** The probed container and file (bob's, or unknown). */
  container: string;
  file: string;
  /** Alice's own container and file. */
  own: string;
  ownFile: string;
}

const containerInfo = (body: string) => (req: request.Test) => req.set('Content-Type', CONTAINER_INFO).send(body);
const fileInfo = (body: string) => (req: request.Test) => req.set('Content-Type', FILE_INFO).send(body);
const href = (kind: string, id: string) => `http://127.0.0.1:8080/v2/${kind}/${id}`;

/** Every /v2 route that takes an id, reading and writing, with the id in the path or in the body. */
const PROBES: Probe[] = [
  ...(['containers', 'files'] as const).flatMap((kind): Probe[] => {
    const at = (ids: Ids) => (kind === 'containers' ? ids.container : ids.file);
    const info = kind === 'containers' ? containerInfo : fileInfo;
    const base = (ids: Ids) => `/v2/${kind}/${at(ids)}`;
    return [
      { name: `GET ${kind}/<id>`, method: 'get', path: base },
      { name: `HEAD ${kind}/<id>`, method: 'head', path: base },
      { name: `PUT ${kind}/<id> (rename)`, method: 'put', path: base, send: info('<x><name>probe</name></x>') },
      {
        name: `PUT ${kind}/<id> (move into alice's container)`,
        method: 'put',
        path: base,
        send: (req, ids) => info(`<x><parent xlink:href="${href('containers', ids.own)}"/></x>`)(req),
      },
      {
        name: `POST ${kind}/<id> (copy into alice's container)`,
        method: 'post',
        path: base,
        send: (req, ids) => req.set('Content-Location', href('containers', ids.own)),
      },
      { name: `DELETE ${kind}/<id>`, method: 'delete', path: base },
      { name: `GET ${kind}/<id>/tags`, method: 'get', path: (ids) => `${base(ids)}/tags` },
      {
        name: `POST ${kind}/<id>/tags`,
        method: 'post',
        path: (ids) => `${base(ids)}/tags`,
        send: (req) =>
          req.set('Content-Type', 'application/vnd.csp.tag-info+xml').send('<tag><name>probe</name></tag>'),
      },
      { name: `PUT ${kind}/<id>/tags/probe`, method: 'put', path: (ids) => `${base(ids)}/tags/probe` },
      { name: `DELETE ${kind}/<id>/tags/kept`, method: 'delete', path: (ids) => `${base(ids)}/tags/kept` },
      { name: `GET ${kind}/<id>/metadata`, method: 'get', path: (ids) => `${base(ids)}/metadata` },
      { name: `GET ${kind}/<id>/metadata/kept`, method: 'get', path: (ids) => `${base(ids)}/metadata/kept` },
      {
        name: `PUT ${kind}/<id>/metadata/probe`,
        method: 'put',
        path: (ids) => `${base(ids)}/metadata/probe`,
        send: (req) => req.set('Content-Type', 'text/plain').send('v'),
      },
      { name: `DELETE ${kind}/<id>/metadata/kept`, method: 'delete', path: (ids) => `${base(ids)}/metadata/kept` },
    ];
  }),
  { name: 'GET containers/<id>/contents', method: 'get', path: (ids) => `/v2/containers/${ids.container}/contents` },
  {
    name: 'GET containers/<id> with X-Cloud-Depth 2',
    method: 'get',
    path: (ids) => `/v2/containers/${ids.container}`,
    send: (req) => req.set('X-Cloud-Depth', '2'),
  },
  {
    name: 'POST containers/<id>/contents (container-info)',
    method: 'post',
    path: (ids) => `/v2/containers/${ids.container}/contents`,
    send: containerInfo('<container><name>probe</name></container>'),
  },
  {
    name: 'POST containers/<id>/contents (file-info)',
    method: 'post',
    path: (ids) => `/v2/containers/${ids.container}/contents`,
    send: fileInfo('<file><name>probe</name></file>'),
  },
  {
    name: 'POST containers/<id>/contents (multipart upload)',
    method: 'post',
    path: (ids) => `/v2/containers/${ids.container}/contents`,
    send: (req) => req.attach('file', Buffer.from('probe'), { filename: 'probe.txt', contentType: 'text/plain' }),
  },
  { name: 'GET files/<id>/content', method: 'get', path: (ids) => `/v2/files/${ids.file}/content` },
  { name: 'GET files/<id>/content/<name>', method: 'get', path: (ids) => `/v2/files/${ids.file}/content/f.txt` },
  {
    name: 'PUT files/<id>/content',
    method: 'put',
    path: (ids) => `/v2/files/${ids.file}/content`,
    send: (req) => req.set('Content-Type', 'application/octet-stream').send('overwritten'),
  },
  {
    name: 'PUT files/<id>/content (a block, Content-Range)',
    method: 'put',
    path: (ids) => `/v2/files/${ids.file}/content`,
    send: (req) => req.set('Content-Range', 'bytes 0-1/*').send('ov'),
  },
  { name: 'GET files/<id>/permissions', method: 'get', path: (ids) => `/v2/files/${ids.file}/permissions` },
  { name: 'GET files/<id>/thumbnail', method: 'get', path: (ids) => `/v2/files/${ids.file}/thumbnail` },
  {
    name: "PUT alice's container (move into the id)",
    method: 'put',
    path: (ids) => `/v2/containers/${ids.own}`,
    send: (req, ids) =>
      containerInfo(`<container><parent xlink:href="${href('containers', ids.container)}"/></container>`)(req),
  },
  {
    name: "PUT alice's file (move into the id)",
    method: 'put',
    path: (ids) => `/v2/files/${ids.ownFile}`,
    send: (req, ids) => fileInfo(`<file><parent xlink:href="${href('containers', ids.container)}"/></file>`)(req),
  },
  {
    name: "POST alice's file (copy into the id)",
    method: 'post',
    path: (ids) => `/v2/files/${ids.ownFile}`,
    send: (req, ids) => req.set('Content-Location', href('containers', ids.container)),
  },
  {
    name: "POST alice's container (copy into the id)",
    method: 'post',
    path: (ids) => `/v2/containers/${ids.own}`,
    send: (req, ids) => req.set('Content-Location', href('containers', ids.container)),
  },
  { name: 'GET recyclebin/<id>', method: 'get', path: (ids) => `/v2/recyclebin/${ids.container}` },
  { name: 'POST recyclebin/<id> (restore)', method: 'post', path: (ids) => `/v2/recyclebin/${ids.container}` },
  { name: 'DELETE recyclebin/<id> (purge)', method: 'delete', path: (ids) => `/v2/recyclebin/${ids.container}` },
];

describe("another user's locked object answers as an unknown id, on every /v2 route", () => {
  const cloud = useCloud({ seed: 'empty', users: { alice: ALICE.password, bob: BOB.password } });
  const app = () => cloud.client.app;
  const as = (who: typeof ALICE, method: Method, path: string) =>
    request(app())[method](path).auth(who.user, who.password).set(SPEC);

  /** Bob's /Documents/f.txt with a tag and a metadata item each, all under a depth-infinity lock. */
  async function lockedByBob(): Promise<{ container: string; file: string }> {
    const store = cloud.client.mock.store;
    await dav(app(), 'MKCOL', '/dav/Documents/', BOB).expect(201);
    await dav(app(), 'PUT', '/dav/Documents/f.txt', BOB).send('bob only').expect(201);
    const container = store.resolvePath('bob', ['Documents'])!.id;
    const file = store.resolvePath('bob', ['Documents', 'f.txt'])!.id;
    for (const id of [container, file]) {
      await store.annotations.addTag('bob', id, 'kept');
      await store.annotations.setMetadata('bob', id, 'kept', 'v');
    }
    await dav(app(), 'LOCK', '/dav/Documents/', BOB).set('Depth', 'infinity').send(LOCKINFO).expect(200);
    return { container, file };
  }

  async function aliceOwn(): Promise<{ own: string; ownFile: string }> {
    const root = pathOf(readXml((await as(ALICE, 'get', '/v2').expect(200)).text).cloud.rootContainer['@_xlink:href']);
    const store = cloud.client.mock.store;
    const rootId = root.split('/').pop()!;
    const own = (await store.createContainer('alice', rootId, 'mine')).id;
    const ownFile = (await store.createFile('alice', rootId, { name: 'mine.txt' })).id;
    return { own, ownFile };
  }

  const answer = (res: request.Response, ids: Ids) => ({
    status: res.status,
    body: res.text?.split(ids.container).join('<id>').split(ids.file).join('<id>') ?? '',
  });

  it("a PUT of a tag on bob's depth-infinity-locked Documents answers alice 404, as for an unknown id", async () => {
    const bob = await lockedByBob();
    const locked = await as(ALICE, 'put', `/v2/containers/${bob.container}/tags/probe`);
    const unknown = await as(ALICE, 'put', `/v2/containers/${UNKNOWN}/tags/probe`);
    expect(unknown.status).toBe(404);
    expect(locked.status).toBe(404);
    expect(locked.text).toBe(unknown.text.split(UNKNOWN).join(bob.container));
  });

  it.each(PROBES.map((p) => [p.name, p] as const))(
    "%s: bob's locked id answers alice exactly as an unknown id, and changes nothing",
    async (_name, probe) => {
      const bob = await lockedByBob();
      const own = await aliceOwn();
      const before = JSON.stringify(cloud.client.mock.store.snapshot().nodes);
      const run = async (ids: Ids) => {
        const req = as(ALICE, probe.method, probe.path(ids));
        return answer(await (probe.send ? probe.send(req, ids) : req), ids);
      };
      const locked = await run({ ...own, ...bob });
      const unknown = await run({ ...own, container: UNKNOWN, file: UNKNOWN });
      expect(locked).toEqual(unknown);
      expect(locked.status).not.toBe(423);
      expect(JSON.stringify(cloud.client.mock.store.snapshot().nodes)).toBe(before);
    },
  );
});

describe('the store decides the owner before any lock, whatever the caller checked first', () => {
  it("every write of alice naming bob's locked node is not-found, never locked", async () => {
    const { store, dispose } = await openTestStore('memory');
    try {
      const bobRoot = store.root('bob').id;
      const aliceRoot = store.root('alice').id;
      const docs = await store.createContainer('bob', bobRoot, 'Documents');
      const file = await store.createFile('bob', docs.id, { name: 'f.txt' });
      await store.annotations.addTag('bob', file.id, 'kept');
      await store.recycleBin.add('bob', (await store.createFile('bob', docs.id, { name: 'gone.txt' })).id);
      const gone = store.recycleBin.list('bob')[0]!;
      await store.lock(
        'bob',
        { nodeId: docs.id },
        { scope: 'exclusive', depth: 'infinity', ownerXml: '', timeout: 600 },
      );
      const own = await store.createContainer('alice', aliceRoot, 'mine');
      const ownFile = await store.createFile('alice', aliceRoot, { name: 'mine.txt' });
      const writes: Array<[string, () => Promise<unknown>]> = [
        ['createContainer in', () => store.createContainer('alice', docs.id, 'probe')],
        ['createFile in', () => store.createFile('alice', docs.id, { name: 'probe' })],
        ['writeContent', () => store.writeContent('alice', file.id, Buffer.from('x'))],
        ['writeContent (block)', () => store.writeContent('alice', file.id, Buffer.from('x'), 0)],
        ['rename', () => store.update('alice', docs.id, { name: 'probe' })],
        ['move out', () => store.update('alice', file.id, { parentId: own.id })],
        ["move alice's in", () => store.update('alice', ownFile.id, { parentId: docs.id })],
        ['copy out', () => store.copy('alice', file.id, own.id)],
        ["copy alice's in", () => store.copy('alice', ownFile.id, docs.id)],
        ['dead properties', () => store.changeDeadProps('alice', file.id, [{ name: 'x', xml: '<x/>' }])],
        [
          'lock',
          () => store.lock('alice', { nodeId: file.id }, { scope: 'shared', depth: '0', ownerXml: '', timeout: 1 }),
        ],
        [
          'lock a new name in',
          () =>
            store.lock(
              'alice',
              { parentId: docs.id, name: 'n' },
              { scope: 'shared', depth: '0', ownerXml: '', timeout: 1 },
            ),
        ],
        ['addTag', () => store.annotations.addTag('alice', docs.id, 'probe')],
        ['removeTag', () => store.annotations.removeTag('alice', file.id, 'kept')],
        ['setMetadata', () => store.annotations.setMetadata('alice', docs.id, 'k', 'v')],
        ['deleteMetadata', () => store.annotations.deleteMetadata('alice', docs.id, 'k')],
        ['delete', () => store.recycleBin.add('alice', file.id)],
        ['restore', () => store.recycleBin.restore('alice', gone.id)],
        ['purge', () => store.recycleBin.purge('alice', gone.id)],
        ['purge live', () => store.recycleBin.purge('alice', file.id, true)],
      ];
      for (const [name, write] of writes) {
        const code = await write().then(
          () => 'done',
          (e: unknown) => (e instanceof DomainError ? e.code : String(e)),
        );
        expect(`${name}: ${code}`).toBe(`${name}: not-found`);
      }
    } finally {
      await dispose();
    }
  });
});
