import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type MockApp } from '../../../src/index.js';
import { HTML_LISTING_PAGE } from '../../../src/dav/html-listing.js';
import { bigFolderScenario, memberName } from '../../helpers/big-folders.js';
import { dav } from './dav-helpers.js';

const FILES = 2_500;

let mock: MockApp;
beforeAll(async () => {
  mock = await createApp({ scenario: bigFolderScenario(FILES) });
}, 60_000);
afterAll(async () => {
  await mock.close();
});

const page = (path: string) => dav(mock.app, 'GET', path).set('Accept', 'text/html').expect(200);
const rowNames = (html: string): string[] =>
  [...html.matchAll(/<tr><td><a href="[^"]*">([^<]*)<\/a>/g)].map((m) => m[1]!);

describe(`GET of a collection of ${FILES} members`, () => {
  it(`shows a browser ${HTML_LISTING_PAGE} rows a page, with links to the next and previous pages`, async () => {
    const first = await page('/dav/big/');
    expect(rowNames(first.text)).toEqual(Array.from({ length: HTML_LISTING_PAGE }, (_, i) => memberName(i)));
    expect(first.text).toContain(`Members 1-${HTML_LISTING_PAGE} of ${FILES}.`);
    expect(first.text).toContain(`<a href="?start=${HTML_LISTING_PAGE}" rel="next">Next page</a>`);
    expect(first.text).not.toContain('rel="prev"');
    const last = await page(`/dav/big/?start=${2 * HTML_LISTING_PAGE}`);
    expect(rowNames(last.text)).toEqual(
      Array.from({ length: FILES - 2 * HTML_LISTING_PAGE }, (_, i) => memberName(2 * HTML_LISTING_PAGE + i)),
    );
    expect(last.text).toContain(`<a href="?start=${HTML_LISTING_PAGE}" rel="prev">Previous page</a>`);
    expect(last.text).not.toContain('rel="next"');
    expect(last.text.trimEnd().endsWith('</html>')).toBe(true);
  });

  it('a start past the end is an empty page that links back; a start that is not a number is 400', async () => {
    const past = await page(`/dav/big/?start=${FILES + 10}`);
    expect(rowNames(past.text)).toEqual([]);
    expect(past.text).toContain(`No members from ${FILES + 11} on (${FILES} in all).`);
    await dav(mock.app, 'GET', '/dav/big/?start=-1').set('Accept', 'text/html').expect(400);
  });

  it('gives WebDAV clients and curl every member, one a line', async () => {
    const res = await dav(mock.app, 'GET', '/dav/big/')
      .expect(200)
      .expect('Content-Type', /^text\/plain/);
    expect(res.text).toBe(Array.from({ length: FILES }, (_, i) => `${memberName(i)}\n`).join(''));
  });
});
