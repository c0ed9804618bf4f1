import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type MockApp, type ScenarioDefinition } from '../../../src/index.js';
import { CHILD_PAGE } from '../../../src/domain/child-listing.js';
import { BASIC_DEMO } from '../../helpers/cli.js';
import { readArriving, wellFormed } from '../../helpers/big-folders.js';

const FILES = 20_000;
const FOLDERS = 20;
const MEMBERS = FILES + FOLDERS;
const PREFIXES = ['Photo-', 'photo_', 'IMG ', 'img-', 'Zeta.', 'a', 'B', 'b'];

/** A small seeded generator (mulberry32): the same names in the same shuffled order every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** File names in mixed case, shuffled: the order they are stored in is far from the listing order. */
const FILE_NAMES = (() => {
  const random = seeded(26);
  const names = Array.from({ length: FILES }, (_, i) => `${PREFIXES[i % PREFIXES.length]!}${i}.jpg`);
  for (let i = names.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [names[i], names[j]] = [names[j]!, names[i]!];
  }
  return names;
})();
const FOLDER_NAMES = Array.from({ length: FOLDERS }, (_, i) => `Folder ${FOLDERS - i}`);

/** The listing order written out on its own: folders first, then by name ignoring case, then by the exact name. */
const byListingOrder = (a: string, b: string): number => {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x !== y ? (x < y ? -1 : 1) : a < b ? -1 : a > b ? 1 : 0;
};
const REFERENCE = [
  ...[...FOLDER_NAMES].sort(byListingOrder).map((n) => `${n}/`),
  ...[...FILE_NAMES].sort(byListingOrder),
];

/** Folders never listed before, one per test, each holding the same members. */
const FOLDER_KEYS = ['v2', 'paged', 'torn', 'dav', 'tagged'] as const;
const scenario: ScenarioDefinition = {
  name: 'never-listed',
  seed: {
    tree: FOLDER_KEYS.map((container) => ({
      container,
      children: [...FOLDER_NAMES.map((name) => ({ container: name })), ...FILE_NAMES.map((file) => ({ file }))],
    })),
  },
};

interface Watched {
  written: number;
}
let mock: MockApp;
let server: Server;
let url: string;
const watched: Watched[] = [];

beforeAll(async () => {
  mock = await createApp({ scenario });
  // The app behind a plain node:http server that counts every answer's bytes as they go out.
  server = createServer((req, res) => {
    const w: Watched = { written: 0 };
    watched.push(w);
    const write = res.write.bind(res) as (chunk: string | Buffer) => boolean;
    res.write = ((chunk: string | Buffer) => {
      w.written += Buffer.byteLength(chunk);
      return write(chunk);
    }) as typeof res.write;
    mock.app(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await mock.close();
});

const idOf = (folder: string): string => mock.store.resolvePath('demo', [folder])!.id;
const contents = (folder: string, query = ''): string => `${url}/v2/containers/${idOf(folder)}/contents${query}`;
const auth = { Authorization: BASIC_DEMO, 'X-Client-Specification': '2' };

/** Each member's name (a folder's with a trailing slash), in document order, from the ids a depth-0 listing links. */
function namesListed(xml: string): string[] {
  return [...xml.matchAll(/<(container|file) xlink:href="[^"]*\/v2\/(?:containers|files)\/([^"/]+)"/g)].map((m) => {
    const name = mock.store.tree.node(m[2]!)!.name;
    return m[1] === 'container' ? `${name}/` : name;
  });
}

const stored = (folder: string): string[] =>
  mock.store.tree.children(idOf(folder)).map((n) => (n.kind === 'container' ? `${n.name}/` : n.name));

describe(`a folder of ${MEMBERS} members never listed before, its members stored far from listing order`, () => {
  it(`lists through /v2 in listing order across every page boundary (${CHILD_PAGE} members a page), equal to a sorted reference; its ETag holds for the next listing`, async () => {
    const answer = await readArriving(contents('v2'));
    expect(answer).toMatchObject({ status: 200, complete: true });
    expect(wellFormed(answer.text)).toBe(true);
    expect(namesListed(answer.text)).toEqual(REFERENCE);
    const tag = String(answer.headers.etag);
    expect(tag).toMatch(new RegExp(`^"L${MEMBERS}-`));
    // The order made for the first listing is kept: the same members give the same tag, and a 304,
    // also after a change elsewhere in the tree (the listing is brought up to date, its members the same).
    expect(await readArriving(contents('v2'), { headers: { 'If-None-Match': tag } })).toMatchObject({ status: 304 });
    const elsewhere = await fetch(`${url}/dav/elsewhere.txt`, { method: 'PUT', headers: auth, body: 'x' });
    expect(elsewhere.status).toBe(201);
    expect(await readArriving(contents('v2'), { headers: { 'If-None-Match': tag } })).toMatchObject({ status: 304 });
  });

  it('a page asked with ?start=&count= astride a page boundary, at depth 1, is the reference’s slice', async () => {
    const start = CHILD_PAGE - 7;
    const answer = await readArriving(contents('paged', `?start=${start}&count=30`), {
      headers: { 'X-Cloud-Depth': '1' },
    });
    expect(wellFormed(answer.text)).toBe(true);
    const names = [...answer.text.matchAll(/<(container|file)><name>([^<]*)<\/name>/g)].map((m) =>
      m[1] === 'container' ? `${m[2]}/` : m[2]!,
    );
    expect(names).toEqual(REFERENCE.slice(start, start + 30));
    expect(answer.text).toMatch(new RegExp(`count="30" start="${start}" total="${MEMBERS}"`));
  });

  it('a delete, a rename and a create landing after the first page went out do not tear the listing: it shows the folder as it was', async () => {
    const files = mock.store.tree.children(idOf('torn')).filter((n) => n.kind === 'file');
    const gone = files[files.length - 1]!;
    const moved = files[files.length - 2]!;
    const count = watched.length;
    let writtenAtChange = 0;
    const answer = await readArriving(contents('torn'), {
      onFirstChunk: async () => {
        const send = (path: string, init: RequestInit) =>
          fetch(`${url}${path}`, { ...init, headers: { ...auth, ...(init.headers as Record<string, string>) } });
        expect((await send(`/v2/files/${gone.id}`, { method: 'DELETE' })).status).toBe(204);
        const rename = await send(`/v2/files/${moved.id}`, {
          method: 'PUT',
          headers: { 'Content-Type': 'application/vnd.csp.file-info+xml' },
          body: '<file><name>a-first-now.txt</name></file>',
        });
        expect(rename.status).toBe(204);
        const create = await send(`/v2/containers/${idOf('torn')}/contents`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/vnd.csp.file-info+xml' },
          body: '<file><name>b-new.txt</name></file>',
        });
        expect(create.status).toBe(201);
        writtenAtChange = watched[count]!.written;
      },
    });
    expect(answer.complete && wellFormed(answer.text)).toBe(true);
    // The changes landed while the listing was still being written (the client read no more meanwhile).
    expect(writtenAtChange).toBeLessThan(Buffer.byteLength(answer.text));
    const listed = [...answer.text.matchAll(/\/v2\/(?:containers|files)\/([^"/]+)"/g)].map((m) => m[1]!);
    expect(listed).toHaveLength(MEMBERS);
    expect(new Set(listed).size).toBe(MEMBERS);
    expect(listed).toContain(gone.id);
    // The renamed member kept its old place; names as they were: the reference.
    const oldNames = new Map([...files, ...mock.store.tree.children(idOf('torn'))].map((n) => [n.id, n.name]));
    oldNames.set(moved.id, moved.name);
    oldNames.set(gone.id, gone.name);
    const kinds = [...answer.text.matchAll(/<(container|file) xlink:href/g)].map((m) => m[1]);
    expect(listed.map((id, i) => `${oldNames.get(id)!}${kinds[i] === 'container' ? '/' : ''}`)).toEqual(REFERENCE);
    // The next listing shows the changes, in listing order.
    const next = await readArriving(contents('torn'));
    expect(namesListed(next.text)).toEqual(stored('torn'));
    expect(namesListed(next.text)).toHaveLength(MEMBERS);
  });

  it('PROPFIND Depth 1 lists its members in listing order, equal to the sorted reference', async () => {
    const answer = await readArriving(`${url}/dav/dav/`, {
      method: 'PROPFIND',
      headers: { Depth: '1', 'Content-Type': 'application/xml' },
      body: '<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/></d:prop></d:propfind>',
    });
    expect(answer.complete && wellFormed(answer.text)).toBe(true);
    const hrefs = [...answer.text.matchAll(/<D:href>\/dav\/dav\/([^<]*)<\/D:href>/g)].map((m) =>
      decodeURIComponent(m[1]!),
    );
    expect(hrefs).toEqual(['', ...REFERENCE]);
  });

  it('an X-Cloud-Depth 2 entity inlines the first page of children in listing order', async () => {
    const answer = await readArriving(`${url}/v2/containers/${idOf('tagged')}?count=2500`, {
      headers: { 'X-Cloud-Depth': '2' },
    });
    expect(answer.complete && wellFormed(answer.text)).toBe(true);
    const inline = [...answer.text.matchAll(/<(container|file) xlink:href="[^"]*"[^>]*><name>([^<]*)<\/name>/g)].map(
      (m) => (m[1] === 'container' ? `${m[2]}/` : m[2]!),
    );
    expect(inline).toEqual(REFERENCE.slice(0, 2500));
  });
});
