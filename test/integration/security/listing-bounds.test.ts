import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type MockApp, type ScenarioDefinition } from '../../../src/index.js';
import { MAX_EXPANDED_ITEMS } from '../../../src/rest/listing-slices.js';
import { ANSWER_SLICE } from '../../../src/http/answer.js';
import { AUTH, SPEC } from '../../helpers/cloud.js';

const FILES = MAX_EXPANDED_ITEMS + 300;
const nameOf = (i: number): string => `f${String(i).padStart(5, '0')}.txt`;

let mock: MockApp | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** A container /wide of FILES small files (each tagged "t"), seeded in one go. */
const wide: ScenarioDefinition = {
  name: 'wide',
  seed: {
    tree: [
      {
        container: 'wide',
        children: Array.from({ length: FILES }, (_, i) => ({ file: nameOf(i), text: 'x', tags: ['t'] })),
      },
    ],
  },
};

async function open(): Promise<{ mock: MockApp; id: string }> {
  mock = await createApp({ scenario: wide });
  return { mock, id: mock.store.resolvePath('demo', ['wide'])!.id };
}

const get = (app: MockApp, path: string, depth: string) =>
  request(app.app).get(path).auth(AUTH.user, AUTH.password).set(SPEC).set('X-Cloud-Depth', depth);

/**
 * count/start/total of the first element carrying them (file-list, or a depth-2 contents link) and
 * the file names listed, read with patterns: a full XML parse of a 5 MB answer costs seconds.
 */
function pageOf(xml: string): { count: number; start: number; total: number; names: string[] } {
  const attrs = /<(?:file-list|contents)\b[^>]*\bcount="(\d+)" start="(\d+)" total="(\d+)"/.exec(xml)!;
  const names = [...xml.matchAll(/<file\b[^>]*>(?:<file>)?<name>([^<]*)<\/name>/g)].map((m) => m[1]!);
  return { count: Number(attrs[1]), start: Number(attrs[2]), total: Number(attrs[3]), names };
}

describe(`listings of full entities are cut at ${MAX_EXPANDED_ITEMS} and made in slices that yield`, () => {
  it(`X-Cloud-Depth 2 on a container of ${FILES} files inlines ${MAX_EXPANDED_ITEMS}; count < total says so, and ?start pages on`, async () => {
    const { mock, id } = await open();
    const first = pageOf((await get(mock, `/v2/containers/${id}`, '2').expect(200)).text);
    expect(first).toMatchObject({ count: MAX_EXPANDED_ITEMS, start: 0, total: FILES });
    expect(first.names).toHaveLength(MAX_EXPANDED_ITEMS);
    expect(first.names[0]).toBe(nameOf(0));
    const rest = pageOf((await get(mock, `/v2/containers/${id}?start=${MAX_EXPANDED_ITEMS}`, '2').expect(200)).text);
    expect(rest).toMatchObject({ count: FILES - MAX_EXPANDED_ITEMS, start: MAX_EXPANDED_ITEMS, total: FILES });
    expect(rest.names[0]).toBe(nameOf(MAX_EXPANDED_ITEMS));
  });

  it('a depth 1 or 2 contents listing (and a tag objects listing) is cut the same way, even with a larger ?count; depth 0 links are not', async () => {
    const { mock, id } = await open();
    const asked: Array<[string, string]> = [
      [`/v2/containers/${id}/contents`, '1'],
      [`/v2/containers/${id}/contents?count=${FILES}`, '2'],
      ['/v2/tags/t/objects', '1'],
    ];
    for (const [path, depth] of asked) {
      const page = pageOf((await get(mock, path, depth).expect(200)).text);
      expect(`${path} ${depth}: ${page.count} ${page.total} ${page.names.length}`).toBe(
        `${path} ${depth}: ${MAX_EXPANDED_ITEMS} ${FILES} ${MAX_EXPANDED_ITEMS}`,
      );
    }
    const links = pageOf((await get(mock, `/v2/containers/${id}/contents`, '0').expect(200)).text);
    expect(links).toMatchObject({ count: FILES, total: FILES });
    const paged = pageOf((await get(mock, `/v2/containers/${id}/contents?start=5100&count=50`, '1').expect(200)).text);
    expect(paged).toMatchObject({ count: 50, start: 5100, total: FILES });
    expect(paged.names.slice(0, 2)).toEqual([nameOf(5100), nameOf(5101)]);
  });

  it('while a big listing is made the event loop turns once a slice, and another client is answered before it ends', async () => {
    const { mock, id } = await open();
    let turns = 0;
    let counting = true;
    const tick = (): void => {
      turns++;
      if (counting) setImmediate(tick);
    };
    const order: string[] = [];
    const big = get(mock, `/v2/containers/${id}/contents`, '1').then((r) => {
      counting = false;
      order.push(`listing ${r.status}`);
      return r;
    });
    setImmediate(tick);
    const account = request(mock.app)
      .get('/v2/account')
      .auth(AUTH.user, AUTH.password)
      .set(SPEC)
      .then((r) => order.push(`account ${r.status}`));
    const [listing] = await Promise.all([big, account]);
    expect(order).toEqual(['account 200', 'listing 200']);
    expect(pageOf(listing.text).names).toHaveLength(MAX_EXPANDED_ITEMS);
    // One turn at least per slice of the answer written.
    expect(turns).toBeGreaterThanOrEqual(Math.floor(listing.text.length / ANSWER_SLICE));
  });
});
