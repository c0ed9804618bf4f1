import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { MAX_EXPANDED_ITEMS } from '../../../src/rest/listing-slices.js';
import { asArray, readXml } from '../../helpers/cloud.js';
import { BASIC_DEMO } from '../../helpers/cli.js';
import { HOSTILE_NAMES, bigFolderScenario, memberName, readArriving, wellFormed } from '../../helpers/big-folders.js';

const FILES = 20_000;
const FOLDERS = 50;
const MEMBERS = FILES + FOLDERS;

let mock: RunningMock;
let bigId: string;
beforeAll(async () => {
  mock = await startMock({ scenario: bigFolderScenario(FILES, FOLDERS) });
  bigId = mock.store.resolvePath('demo', ['big'])!.id;
}, 60_000);
afterAll(async () => {
  await mock.close();
});

const contents = (query = ''): string => `${mock.url}/v2/containers/${bigId}/contents${query}`;

/** count/start/total and each member's kind and id, in document order, read with patterns (a full parse of 20,000 members is slow). */
function members(xml: string): { count: number; start: number; total: number; items: string[] } {
  const attrs = /<file-list\b[^>]*\bcount="(\d+)" start="(\d+)" total="(\d+)"/.exec(xml)!;
  const items = [...xml.matchAll(/<(container|file) xlink:href="[^"]*\/v2\/(?:containers|files)\/([^"/]+)"/g)].map(
    (m) => `${m[1]} ${m[2]}`,
  );
  return { count: Number(attrs[1]), start: Number(attrs[2]), total: Number(attrs[3]), items };
}

/** What the store holds now, in listing order. */
const stored = (): string[] => mock.store.tree.children(bigId).map((n) => `${n.kind} ${n.id}`);

const write = (method: string, path: string, init: RequestInit = {}): Promise<Response> =>
  fetch(`${mock.url}${path}`, {
    ...init,
    method,
    headers: { Authorization: BASIC_DEMO, 'X-Client-Specification': '2', ...init.headers },
  });

describe(`listing a folder of ${MEMBERS} members through /v2 streams a complete document`, () => {
  it('the depth-0 contents arrive chunked, in several pieces, as one well-formed file-list with every member once, containers first', async () => {
    const answer = await readArriving(contents());
    expect(answer).toMatchObject({ status: 200, complete: true });
    expect(answer.headers['transfer-encoding']).toBe('chunked');
    expect(answer.headers['content-length']).toBeUndefined();
    expect(answer.headers['content-type']).toBe('application/vnd.csp.file-list+xml; charset=utf-8');
    expect(answer.headers.etag).toMatch(/^"L20050-/);
    expect(answer.chunks).toBeGreaterThan(1);
    expect(wellFormed(answer.text)).toBe(true);
    const page = members(answer.text);
    expect(page).toMatchObject({ count: MEMBERS, start: 0, total: MEMBERS });
    expect(page.items).toEqual(stored());
    expect(new Set(page.items).size).toBe(MEMBERS);
    expect(page.items.slice(FOLDERS - 1, FOLDERS + 1).map((i) => i.split(' ')[0])).toEqual(['container', 'file']);
  });

  it(`at depth 1 ?start=&count= pages through every member, ${MAX_EXPANDED_ITEMS} entities an answer, each page well-formed`, async () => {
    const names: string[] = [];
    for (let start = 0; start < MEMBERS; start += MAX_EXPANDED_ITEMS) {
      const answer = await readArriving(contents(`?start=${start}&count=${MAX_EXPANDED_ITEMS}`), {
        headers: { 'X-Cloud-Depth': '1' },
      });
      expect(answer.complete && wellFormed(answer.text)).toBe(true);
      const page = members(answer.text);
      expect(page).toMatchObject({ start, total: MEMBERS });
      // A wrapped entity's own element follows its link: <file xlink:href=...><file><name>NAME</name>.
      for (const m of answer.text.matchAll(/<(container|file)><name>([^<]*)<\/name>/g))
        names.push(m[1] === 'container' ? `${m[2]}/` : m[2]!);
    }
    const folders = Array.from({ length: FOLDERS }, (_, i) => `d${String(i).padStart(4, '0')}/`);
    expect(names).toEqual([...folders, ...Array.from({ length: FILES }, (_, i) => memberName(i))]);
  });

  it('the filter still counts and pages over matching members only', async () => {
    const answer = await readArriving(
      contents('?filterField=name&filterOperation=ILIKE&filterValue=F0199&start=5&count=3'),
    );
    const page = members(answer.text);
    expect(page).toMatchObject({ count: 3, start: 5, total: 100 });
    const ids = page.items.map((i) => i.split(' ')[1]!);
    expect(ids.map((id) => mock.store.tree.node(id)!.name)).toEqual([
      memberName(19905),
      memberName(19906),
      memberName(19907),
    ]);
  });

  it('another client is answered while a big listing is being written', async () => {
    const order: string[] = [];
    const listing = readArriving(contents(), {
      headers: { 'X-Cloud-Depth': '1' },
      onFirstChunk: async () => {
        const account = await write('GET', '/v2/account');
        order.push(`account ${account.status}`);
      },
    }).then((answer) => {
      order.push(`listing ${answer.status} ${answer.complete}`);
      return answer;
    });
    const answer = await listing;
    expect(order).toEqual(['account 200', 'listing 200 true']);
    expect(members(answer.text).count).toBe(MAX_EXPANDED_ITEMS);
  });

  it('names that look like markup or URLs come back exactly as stored, escaped in a well-formed listing', async () => {
    const hostileId = mock.store.resolvePath('demo', ['hostile'])!.id;
    const answer = await readArriving(`${mock.url}/v2/containers/${hostileId}/contents`, {
      headers: { 'X-Cloud-Depth': '1' },
    });
    expect(wellFormed(answer.text)).toBe(true);
    expect(answer.text).not.toContain('<script>');
    const names = asArray(readXml(answer.text)['file-list']!.file).map((f) => f.file.name);
    expect(names.sort()).toEqual([...HOSTILE_NAMES].sort());
  });

  it('a big listing answers its If-None-Match with 304, and a change in the folder changes its ETag', async () => {
    // Not fetch: it adds Cache-Control: no-cache to a conditional request, which a server must answer in full.
    const first = await readArriving(contents());
    const tag = String(first.headers.etag);
    const again = await readArriving(contents(), { headers: { 'If-None-Match': tag } });
    expect(again).toMatchObject({ status: 304, text: '' });
    const file = mock.store.resolvePath('demo', ['big', memberName(7)])!;
    const renamed = await write('PUT', `/v2/files/${file.id}`, {
      headers: { 'Content-Type': 'application/vnd.csp.file-info+xml' },
      body: '<file><name>zz-renamed.txt</name></file>',
    });
    expect(renamed.status).toBe(204);
    const after = await readArriving(contents(), { headers: { 'If-None-Match': tag } });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(tag);
    expect(members(after.text).items).toEqual(stored());
  });

  it('a listing while another client writes shows the folder as it was when it started: one valid document, no member twice', async () => {
    const before = stored();
    const gone = mock.store.resolvePath('demo', ['big', memberName(FILES - 1)])!;
    const moved = mock.store.resolvePath('demo', ['big', memberName(FILES - 2)])!;
    const answer = await readArriving(contents(), {
      onFirstChunk: async () => {
        expect((await write('DELETE', `/v2/files/${gone.id}`)).status).toBe(204);
        const rename = await write('PUT', `/v2/files/${moved.id}`, {
          headers: { 'Content-Type': 'application/vnd.csp.file-info+xml' },
          body: '<file><name>a-first-now.txt</name></file>',
        });
        expect(rename.status).toBe(204);
        const create = await write('POST', `/v2/containers/${bigId}/contents`, {
          headers: { 'Content-Type': 'application/vnd.csp.file-info+xml' },
          body: '<file><name>b-new.txt</name></file>',
        });
        expect(create.status).toBe(201);
      },
    });
    expect(answer.complete && wellFormed(answer.text)).toBe(true);
    const page = members(answer.text);
    expect(page).toMatchObject({ count: MEMBERS, total: MEMBERS });
    expect(page.items).toEqual(before);
    // The next listing shows the changes, in listing order.
    const next = members((await readArriving(contents())).text);
    expect(next.items).toEqual(stored());
    expect(next.items).not.toContain(`file ${gone.id}`);
    expect(next.items.indexOf(`file ${moved.id}`)).toBe(FOLDERS);
    expect(next.total).toBe(MEMBERS);
  });
});
