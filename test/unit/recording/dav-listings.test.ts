// The state a recording's WebDAV exchanges show: listings, reads, writes, MKCOL, COPY, MOVE, DELETE.
import { describe, expect, it } from 'vitest';
import { recordingToState } from '../../../src/index.js';
import { recordingStartState } from '../../../src/recording/recording-start.js';
import type { Exchange, Recording } from '../../../src/recording/format.js';
import type { RecordedObject, RecordedTree } from '../../../src/recording/recorded-tree.js';

let nextId = 1;
function exchange(
  method: string,
  path: string,
  status: number,
  opts: { destination?: string; reqBody?: string; resBody?: string } = {},
): Exchange {
  return {
    id: nextId++,
    user: 'demo',
    request: {
      method,
      path,
      query: [],
      headers: opts.destination ? { destination: opts.destination } : {},
      body: Buffer.from(opts.reqBody ?? ''),
    },
    response: { status, headers: {}, body: Buffer.from(opts.resBody ?? '') },
  };
}
const recording = (...exchanges: Exchange[]): Recording => ({ redacted: [], exchanges });

/** A 207 listing each resource: a path ending in "/" is a collection, else a file of `size` bytes. */
function listing(prefix: string, resources: Array<[string, number?, string?]>): string {
  const p = prefix ? `${prefix}:` : '';
  const declare = prefix ? `xmlns:${prefix}="DAV:"` : 'xmlns="DAV:"';
  const one = ([href, size, type]: [string, number?, string?]) =>
    `<${p}response><${p}href>${href}</${p}href><${p}propstat><${p}prop>` +
    (href.endsWith('/')
      ? `<${p}resourcetype><${p}collection/></${p}resourcetype>`
      : `<${p}resourcetype/><${p}getcontentlength>${size}</${p}getcontentlength>` +
        (type ? `<${p}getcontenttype>${type}</${p}getcontenttype>` : '')) +
    `</${p}prop><${p}status>HTTP/1.1 200 OK</${p}status></${p}propstat></${p}response>`;
  return `<?xml version="1.0"?><${p}multistatus ${declare}>${resources.map(one).join('')}</${p}multistatus>`;
}

/** Each live object's path from the root, with what it is. */
function paths(tree: RecordedTree): Record<string, string> {
  const out: Record<string, string> = {};
  const pathOf = (o: RecordedObject): string =>
    o.parentId === null || o.parentId === undefined ? '' : `${pathOf(tree.objects.get(o.parentId)!)}/${o.name}`;
  for (const o of tree.objects.values()) {
    if (o.deleted || o.parentId === null) continue;
    out[pathOf(o)] =
      o.kind === 'container' ? 'folder' : `${o.bytes ?? o.content?.length} bytes${o.mimeType ? ` ${o.mimeType}` : ''}`;
  }
  return out;
}

describe('recording -> state from WebDAV exchanges', () => {
  it('a PROPFIND listing gives folders and files their kinds, sizes and types, with parents by path and made-up ids', () => {
    const tree = recordingToState(
      recording(
        exchange('PROPFIND', '/dav/', 207, {
          resBody: listing('D', [['/dav/'], ['/dav/Docs/'], ['/dav/hello.json', 18, 'application/json']]),
        }),
        exchange('PROPFIND', '/dav/Docs/', 207, {
          resBody: listing('', [['/dav/Docs/'], ['http://upstream:8080/dav/Docs/caf%C3%A9.txt', 5]]),
        }),
      ),
    );
    expect(paths(tree)).toEqual({
      '/Docs': 'folder',
      '/hello.json': '18 bytes application/json',
      '/Docs/café.txt': '5 bytes',
    });
    const root = tree.roots.get('demo')!;
    expect(tree.objects.get(root)).toMatchObject({ kind: 'container', parentId: null });
    expect([...tree.objects.keys()].every((id) => id.startsWith('dav-'))).toBe(true);
  });

  it('GET and PUT give contents, MKCOL a folder, DELETE removes what lies under the path', () => {
    const tree = recordingToState(
      recording(
        exchange('GET', '/dav/a/read.txt', 200, { resBody: 'was there' }),
        exchange('MKCOL', '/dav/b', 201),
        exchange('PUT', '/dav/b/new.txt', 201, { reqBody: 'written' }),
        exchange('PUT', '/dav/gone/x.txt', 201, { reqBody: 'x' }),
        exchange('DELETE', '/dav/gone', 204),
        exchange('PUT', '/dav/refused.txt', 403, { reqBody: 'no' }),
      ),
    );
    expect(paths(tree)).toEqual({
      '/a': 'folder',
      '/a/read.txt': '9 bytes',
      '/b': 'folder',
      '/b/new.txt': '7 bytes',
    });
  });

  it('MOVE carries a folder with what is under it and replaces what was at the destination; COPY makes new objects', () => {
    const tree = recordingToState(
      recording(
        exchange('PROPFIND', '/dav/', 207, {
          resBody: listing('d', [['/dav/'], ['/dav/src/'], ['/dav/src/one.txt', 3], ['/dav/old.txt', 4]]),
        }),
        exchange('MOVE', '/dav/src', 201, { destination: '{{baseUrl}}/dav/dest' }),
        exchange('COPY', '/dav/dest/one.txt', 201, { destination: 'http://127.0.0.1:9/dav/copy.txt' }),
        exchange('MOVE', '/dav/copy.txt', 204, { destination: '/dav/old.txt' }),
      ),
    );
    expect(paths(tree)).toEqual({ '/dest': 'folder', '/dest/one.txt': '3 bytes', '/old.txt': '3 bytes' });
  });

  it('the start state puts what a MOVE took back where it was first seen and leaves out what the session made', () => {
    const start = recordingStartState(
      recording(
        exchange('PROPFIND', '/dav/', 207, {
          resBody: listing('D', [['/dav/'], ['/dav/Photos/'], ['/dav/Photos/sunset.png', 70, 'image/png']]),
        }),
        exchange('MKCOL', '/dav/Archive', 201),
        exchange('MOVE', '/dav/Photos/sunset.png', 201, { destination: '/dav/Archive/sunset.png' }),
        exchange('PUT', '/dav/Archive/new.txt', 201, { reqBody: 'new' }),
      ),
    );
    expect(paths(start)).toEqual({ '/Photos': 'folder', '/Photos/sunset.png': '70 bytes image/png' });
  });

  it('an object seen over /v2 and over WebDAV at the same path is one object (its /v2 id), given what WebDAV read', () => {
    const XLINK = 'xmlns:xlink="http://www.w3.org/1999/xlink"';
    const link = (kind: string, id: string) => `xlink:href="{{baseUrl}}/v2/${kind}/${id}" xlink:type="simple"`;
    const tree = recordingToState(
      recording(
        exchange('GET', '/v2', 200, {
          resBody: `<cloud ${XLINK}><rootContainer ${link('containers', 'ROOT')}/></cloud>`,
        }),
        exchange('GET', '/v2/containers/ROOT/contents', 200, {
          resBody: `<file-list ${XLINK}><container ${link('containers', 'C1')}><container><name>Docs</name></container></container></file-list>`,
        }),
        exchange('GET', '/v2/containers/C1/contents', 200, {
          resBody: `<file-list ${XLINK}><file ${link('files', 'F1')}><file><name>a.txt</name><bytes>5</bytes></file></file></file-list>`,
        }),
        exchange('GET', '/dav/Docs/a.txt', 200, { resBody: 'alpha' }),
        exchange('PUT', '/dav/Docs/b.txt', 201, { reqBody: 'beta' }),
      ),
    );
    expect(paths(tree)).toEqual({ '/Docs': 'folder', '/Docs/a.txt': '5 bytes', '/Docs/b.txt': '4 bytes' });
    expect(tree.objects.get('F1')!.content!.toString()).toBe('alpha');
    expect(tree.objects.get([...tree.objects.values()].find((o) => o.name === 'b.txt')!.parentId!)!.id).toBe('C1');
    expect(tree.roots.get('demo')).toBe('ROOT');
  });

  it('a path deeper than 256 folders or longer than 4,096 characters is not read into the state (and ends nothing)', () => {
    const deep = `/dav/${'d/'.repeat(300)}x.txt`;
    const long = `/dav/${'n'.repeat(5000)}.txt`;
    const tree = recordingToState(
      recording(
        exchange('PUT', deep, 201, { reqBody: 'deep' }),
        exchange('PUT', long, 201, { reqBody: 'long' }),
        exchange('MOVE', '/dav/kept.txt', 201, { destination: deep }),
        exchange('PUT', '/dav/ok.txt', 201, { reqBody: 'ok' }),
      ),
    );
    expect(paths(tree)).toEqual({ '/ok.txt': '2 bytes' });
  });
});
