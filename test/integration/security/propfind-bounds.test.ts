import { request as httpRequest } from 'node:http';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock, type ScenarioDefinition } from '../../../src/index.js';
import { MAX_PROPFIND_ELEMENTS, MAX_PROPFIND_NAMES, MAX_PROPFIND_VALUES } from '../../../src/dav/propfind.js';
import { ANSWER_SLICE } from '../../../src/http/answer.js';
import { AUTH, SPEC } from '../../helpers/cloud.js';
import { PROPFIND_ALL, dav, propfindBody, readMultistatus } from '../dav/dav-helpers.js';

let running: RunningMock | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** A folder /wide of `files` small files, seeded in one go. */
const wide = (files: number): ScenarioDefinition => ({
  name: 'wide',
  seed: {
    tree: [
      { container: 'wide', children: Array.from({ length: files }, (_, i) => ({ file: `f${i}.txt`, text: 'x' })) },
    ],
  },
});

/** A PROPFIND body naming `count` distinct dead properties (short names, so 90,000 fit in the 1 MiB body limit). */
function manyNames(count: number, extra = ''): string {
  const names: string[] = [];
  for (let i = 0; i < count; i++) names.push(`<x:${i.toString(36)}/>`);
  return `<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:x="urn:x"><d:prop>${extra}${names.join('')}</d:prop></d:propfind>`;
}

async function open(files: number): Promise<RunningMock> {
  running = await startMock({ scenario: wide(files) });
  return running;
}

const account = (mock: RunningMock) => request(mock.app).get('/v2/account').auth(AUTH.user, AUTH.password).set(SPEC);

describe('PROPFIND work is bounded (property names, answer size) and yields to others', () => {
  it('a Depth 1 PROPFIND naming 90,000 properties on a folder of 600 files is refused with 413 and the server lives on', async () => {
    const mock = await open(600);
    const body = manyNames(90_000);
    expect(Buffer.byteLength(body)).toBeLessThan(1024 * 1024);
    const res = await dav(mock.app, 'PROPFIND', '/dav/wide/').set('Depth', '1').send(body).expect(413);
    expect(res.text).toContain(
      `names more than ${MAX_PROPFIND_NAMES} distinct properties (90002 distinct element names); at most ${MAX_PROPFIND_NAMES} distinct properties are answered in one request`,
    );
    await account(mock).expect(200);
    // A normal request on the same folder still answers every member.
    const ok = await dav(mock.app, 'PROPFIND', '/dav/wide/')
      .set('Depth', '1')
      .send(propfindBody('getetag'))
      .expect(207);
    expect(readMultistatus(ok.text)).toHaveLength(601);
  });

  it(`${MAX_PROPFIND_NAMES} distinct names are answered; one more is refused; duplicates count once, up to an element cap`, async () => {
    const mock = await open(3);
    const at = await dav(mock.app, 'PROPFIND', '/dav/wide/')
      .set('Depth', '1')
      .send(manyNames(MAX_PROPFIND_NAMES))
      .expect(207);
    const first = readMultistatus(at.text)[0]!;
    expect(Object.keys(first.props)).toHaveLength(MAX_PROPFIND_NAMES);
    expect(Object.values(first.props).every((p) => p.status === 404)).toBe(true);
    await dav(mock.app, 'PROPFIND', '/dav/wide/')
      .set('Depth', '1')
      .send(manyNames(MAX_PROPFIND_NAMES + 1))
      .expect(413);
    // 5,000 copies of one name and two others: three names, each answered once.
    const repeated = '<d:getetag/>'.repeat(5_000);
    const dup = await dav(mock.app, 'PROPFIND', '/dav/wide/f0.txt')
      .set('Depth', '0')
      .send(propfindBody('displayname', 'getcontentlength').replace('<d:prop>', `<d:prop>${repeated}`))
      .expect(207);
    expect(dup.text.match(/<D:getetag>/g)).toHaveLength(1);
    expect(readMultistatus(dup.text)[0]!.props['D:displayname']!.value).toBe('f0.txt');
    // 90,000 copies of one name: refused before the parse (its cost grows with the elements, not the names).
    const flood = await dav(mock.app, 'PROPFIND', '/dav/wide/f0.txt')
      .set('Depth', '0')
      .send(propfindBody('getetag').replace('<d:prop>', `<d:prop>${'<d:getetag/>'.repeat(80_000)}`))
      .expect(413);
    expect(flood.text).toContain(`holds 80003 elements; at most ${MAX_PROPFIND_ELEMENTS} are read`);
  });

  it(`an answer of more than ${MAX_PROPFIND_VALUES} property values is refused with 507 and why, before any is built`, async () => {
    const members = Math.floor(MAX_PROPFIND_VALUES / MAX_PROPFIND_NAMES); // with the folder: one member too many
    const mock = await open(members);
    const res = await dav(mock.app, 'PROPFIND', '/dav/wide/')
      .set('Depth', '1')
      .send(manyNames(MAX_PROPFIND_NAMES))
      .expect(507);
    expect(res.text).toContain('<D:error xmlns:D="DAV:"><M:propfind-too-large xmlns:M="urn:csp-mock">');
    expect(res.text).toContain(
      `would answer ${(members + 1) * MAX_PROPFIND_NAMES} property values over ${members + 1} members`,
    );
    // The same names on one member, and allprop on all of them, are answered.
    await dav(mock.app, 'PROPFIND', '/dav/wide/f0.txt')
      .set('Depth', '0')
      .send(manyNames(MAX_PROPFIND_NAMES))
      .expect(207);
    const all = await dav(mock.app, 'PROPFIND', '/dav/wide/').set('Depth', '1').send(PROPFIND_ALL).expect(207);
    expect(readMultistatus(all.text)).toHaveLength(members + 1);
  });

  it('a big answer is built in slices: the event loop turns between them and another client is answered before it ends', async () => {
    const mock = await open(3000);
    // Counts event-loop turns in this process (the server's) while the answer is produced.
    let turns = 0;
    let counting = true;
    const tick = (): void => {
      turns++;
      if (counting) setImmediate(tick);
    };
    const order: string[] = [];
    const big = new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        `${mock.url}/dav/wide/`,
        { method: 'PROPFIND', headers: { Authorization: basic(), Depth: '1', 'Content-Type': 'application/xml' } },
        (res) => {
          const chunks: Buffer[] = [];
          // The first slice is out: ask for something else while the rest is made.
          setImmediate(tick);
          void account(mock).then((r) => order.push(`account ${r.status}`));
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            order.push(`propfind ${res.statusCode}`);
            counting = false;
            resolve(Buffer.concat(chunks).toString());
          });
        },
      );
      req.on('error', reject);
      req.end(PROPFIND_ALL);
    });
    const text = await big;
    expect(order).toEqual(['account 200', 'propfind 207']);
    const entries = readMultistatus(text);
    expect(entries).toHaveLength(3001);
    expect(entries[3000]!.props['D:getcontentlength']!.value).toBe('1');
    // At least one turn per slice after the first (a slice is a little over ANSWER_SLICE: whole entries).
    expect(turns).toBeGreaterThanOrEqual(Math.floor(text.length / (ANSWER_SLICE + 4096)) - 1);
    expect(turns).toBeGreaterThan(20);
  });
});

function basic(): string {
  return `Basic ${Buffer.from(`${AUTH.user}:${AUTH.password}`).toString('base64')}`;
}
