// The mock's clock on the wire: what a client reads of time (entity times, Date, Last-Modified, the recycle
// bin's dates, lock expiry) follows a frozen, advanced or skewed clock, and a scenario's clock.
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { asArray, pathOf, readXml } from '../../helpers/cloud.js';
import { HttpCloud } from '../../helpers/http-cloud.js';

const FROZEN = '2025-01-01T00:00:00Z';
const FROZEN_MS = Date.parse(FROZEN);
const DAY_MS = 86_400_000;

let mock: RunningMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const seconds = (ms: number): string => String(Math.floor(ms / 1000));
const dateOf = (res: Response): number => Date.parse(res.headers.get('date') ?? '');

async function dav(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  return fetch(`${mock!.url}/dav${path}`, {
    method,
    headers: { Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}`, ...headers },
    body,
  });
}

describe('the mock clock on the wire', () => {
  it('a frozen clock: entity times, Date and Last-Modified are the frozen time, for the seed and for new files', async () => {
    mock = await startMock({ clock: { frozen: FROZEN } });
    const cloud = new HttpCloud(mock.url);
    const root = await cloud.rootPath();
    const entry = await cloud.request('/v2', {}, 200);
    expect(dateOf(entry)).toBe(FROZEN_MS);

    const file = await cloud.upload(root, 'new.txt', Buffer.from('hello'));
    const info = readXml(await (await cloud.request(file, {}, 200)).text()).file;
    expect(info.created).toBe(seconds(FROZEN_MS));
    expect(info.modified).toBe(seconds(FROZEN_MS));
    const seeded = readXml(await (await cloud.request(root, {}, 200)).text()).container;
    expect(seeded.created).toBe(seconds(FROZEN_MS));

    const content = await cloud.request(`${file}/content`, {}, 200);
    expect(Date.parse(content.headers.get('last-modified')!)).toBe(FROZEN_MS);
    expect(dateOf(content)).toBe(FROZEN_MS);

    const found = await dav('PROPFIND', '/new.txt', { Depth: '0' });
    const xml = await found.text();
    expect(xml).toContain('<D:creationdate>2025-01-01T00:00:00Z</D:creationdate>');
    expect(xml).toContain(`<D:getlastmodified>${new Date(FROZEN_MS).toUTCString()}</D:getlastmodified>`);
    expect(dateOf(found)).toBe(FROZEN_MS);
  });

  it('advance 2d: the Date moves two days on, a recycled item keeps its date (two days old), a new write is stamped two days later', async () => {
    mock = await startMock({ clock: { frozen: FROZEN } });
    const cloud = new HttpCloud(mock.url);
    const root = await cloud.rootPath();
    const old = await cloud.upload(root, 'old.txt', Buffer.from('old'));
    await cloud.delete(old);

    await mock.clock.advance('2d');
    const listing = await cloud.request('/v2/recyclebin', {}, 200);
    const item = asArray(readXml(await listing.text()).recyclebin['recycled-item'])[0]!;
    expect(item.recycleddate).toBe(seconds(FROZEN_MS));
    expect(dateOf(listing) - Number(item.recycleddate) * 1000).toBe(2 * DAY_MS);

    const later = await cloud.upload(root, 'later.txt', Buffer.from('later'));
    expect(readXml(await (await cloud.request(later, {}, 200)).text()).file.modified).toBe(
      seconds(FROZEN_MS + 2 * DAY_MS),
    );
    await cloud.request(pathOf(item['@_xlink:href']), { method: 'POST' }, 204);
    expect(readXml(await (await cloud.request(old, {}, 200)).text()).file.modified).toBe(seconds(FROZEN_MS));
  });

  it('a WebDAV lock of an hour expires when the clock is advanced past it, and not before', async () => {
    mock = await startMock({ clock: { frozen: FROZEN } });
    const lockinfo =
      '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';
    const locked = await dav(
      'LOCK',
      '/Documents/readme.txt',
      { Timeout: 'Second-3600', 'Content-Type': 'application/xml' },
      lockinfo,
    );
    expect(locked.status).toBe(200);
    expect((await dav('PUT', '/Documents/readme.txt', {}, 'x')).status).toBe(423);
    await mock.clock.advance('59m');
    expect((await dav('PUT', '/Documents/readme.txt', {}, 'x')).status).toBe(423);
    await mock.clock.advance('2m');
    expect((await dav('PUT', '/Documents/readme.txt', {}, 'y')).status).toBe(204);
  });

  it('an offset skews Date by that much from real time, and the journal keeps real time beside the mock time', async () => {
    mock = await startMock({ clock: { offset: '-5m' } });
    const before = Date.now();
    const res = await fetch(`${mock.url}/v2`, {
      headers: { Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}` },
    });
    const after = Date.now();
    const shown = dateOf(res);
    // Date has whole seconds: the skewed moment of the answer, floored.
    expect(shown).toBeGreaterThanOrEqual(Math.floor((before - 300_000) / 1000) * 1000);
    expect(shown).toBeLessThanOrEqual(after - 300_000);
    const [entry] = await mock.requests({ path: '/v2' });
    expect(Date.parse(entry!.time) - Date.parse(entry!.mockTime)).toBe(300_000);
  });

  it("a scenario's clock applies on a switch, on reset after the clock was moved, and a scenario without one goes back to the options' clock", async () => {
    mock = await startMock({ clock: { frozen: '2030-06-01T12:00:00Z' } });
    const cloud = new HttpCloud(mock.url);
    await mock.useScenario({
      name: 'new-year',
      clock: { frozen: FROZEN },
      seed: { tree: [{ file: 'a.txt', text: 'a' }] },
    });
    expect(dateOf(await cloud.request('/v2', {}, 200))).toBe(FROZEN_MS);
    // The scenario's seed is stamped with the scenario's time.
    const listed = await cloud.list(await cloud.rootPath());
    const file = listed.find((i) => i.name === 'a.txt')!;
    expect(readXml(await (await cloud.request(file.path, {}, 200)).text()).file.created).toBe(seconds(FROZEN_MS));

    await mock.clock.advance('3d');
    expect(dateOf(await cloud.request('/v2', {}, 200))).toBe(FROZEN_MS + 3 * DAY_MS);
    await mock.reset();
    expect(dateOf(await cloud.request('/v2', {}, 200))).toBe(FROZEN_MS);

    await mock.useScenario('default');
    expect(dateOf(await cloud.request('/v2', {}, 200))).toBe(Date.parse('2030-06-01T12:00:00Z'));
  });

  it('a scenario file with a clock applies from the start, and a switch that fails leaves the clock as it was', async () => {
    mock = await startMock({ scenario: { clock: { offset: '10d' }, seed: { tree: [] } } });
    const state = await mock.clock.state();
    expect(state.frozen).toBe(false);
    expect(state.offsetMs).toBeGreaterThanOrEqual(10 * DAY_MS - 1000);
    expect(state.offsetMs).toBeLessThanOrEqual(10 * DAY_MS + 1000);
    await mock.clock.freeze(FROZEN);
    await expect(
      mock.useScenario({
        clock: { frozen: '2020-01-01T00:00:00Z' },
        seed: { tree: [{ file: 'x', fixture: 'missing.bin' }] },
      }),
    ).rejects.toThrow(/missing\.bin/);
    expect((await mock.clock.now()).getTime()).toBe(FROZEN_MS);
  });

  it('a bad clock is refused with the field named: in a scenario, and as an option', async () => {
    mock = await startMock();
    await expect(mock.useScenario({ clock: { offset: 'soon' } })).rejects.toThrow(
      /clock\.offset: has none of the allowed forms \(A length of time/,
    );
    await expect(mock.useScenario({ clock: { frozen: '2025-01-01T00:00:00' } })).rejects.toThrow(
      /clock\.frozen.*with its zone/,
    );
    await expect(mock.useScenario({ clock: { offset: '1m', frozen: FROZEN } as never })).rejects.toThrow(/clock/);
    await expect(startMock({ clock: { offset: '5 minutes' } })).rejects.toThrow(/clock\.offset/);
  });
});
