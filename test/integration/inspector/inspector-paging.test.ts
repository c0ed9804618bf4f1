import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type MockApp } from '../../../src/index.js';
import { MAX_LISTED } from '../../../src/admin/inspector-files.js';
import type { Listing } from '../../../src/http/wire-types.js';
import { bigFolderScenario, memberName } from '../../helpers/big-folders.js';

const FILES = 1_050;
const FOLDERS = 3;

let mock: MockApp;
let bigId: string;
beforeAll(async () => {
  mock = await createApp({ scenario: bigFolderScenario(FILES, FOLDERS) });
  bigId = mock.store.resolvePath('demo', ['big'])!.id;
}, 60_000);
afterAll(async () => {
  await mock.close();
});

const children = async (query: string): Promise<Listing> =>
  (await request(mock.app).get(`/__admin/inspector/children?user=demo&id=${bigId}${query}`).expect(200))
    .body as Listing;

describe(`the inspector lists a folder of ${FILES + FOLDERS} members a page at a time`, () => {
  it(`answers ${MAX_LISTED} members a page, with how many follow and where the next page starts, until the last`, async () => {
    const names: string[] = [];
    let start: number | null = 0;
    let pages = 0;
    while (start !== null) {
      const listing: Listing = await children(`&start=${start}`);
      expect(listing.start).toBe(start);
      expect(listing.nodes.length).toBeLessThanOrEqual(MAX_LISTED);
      expect(listing.more).toBe(FILES + FOLDERS - start - listing.nodes.length);
      names.push(...listing.nodes.map((n) => n.name));
      start = listing.next;
      pages++;
    }
    expect(pages).toBe(Math.ceil((FILES + FOLDERS) / MAX_LISTED));
    const folders = Array.from({ length: FOLDERS }, (_, i) => `d${String(i).padStart(4, '0')}`);
    expect(names).toEqual([...folders, ...Array.from({ length: FILES }, (_, i) => memberName(i))]);
  });

  it('the first page without ?start is the one from 0, a folder counts its members, and a bad start is 400', async () => {
    const first = await children('');
    expect(first).toMatchObject({ start: 0, next: MAX_LISTED, more: FILES + FOLDERS - MAX_LISTED });
    expect(first.nodes[0]).toMatchObject({ kind: 'container', members: 0 });
    const users = (await request(mock.app).get('/__admin/inspector/users').expect(200)).body as {
      users: Array<{ user: string; members: number }>;
    };
    expect(users.users.find((u) => u.user === 'demo')!.members).toBe(2);
    const bad = await request(mock.app).get(`/__admin/inspector/children?user=demo&id=${bigId}&start=x`);
    expect(bad.status).toBe(400);
  });
});
