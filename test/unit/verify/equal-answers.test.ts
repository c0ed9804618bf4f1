import { describe, expect, it } from 'vitest';
import { compareXml, parseOrdered } from '../../../src/recording/xml-compare.js';
import { sameMediaType } from '../../../src/verify/verify-recording.js';

const parsed = (text: string) => parseOrdered(text)!;
const propstat = (props: string) =>
  `<D:multistatus xmlns:D="DAV:"><D:response><D:href>/dav/a.txt</D:href><D:propstat><D:prop>${props}</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response></D:multistatus>`;

describe('verify treats as equal what HTTP and WebDAV say is equal, and nothing else', () => {
  it.each<[string, string, boolean]>([
    ['application/xml; charset=utf-8', 'application/xml; charset=UTF-8', true],
    ['text/xml; charset="utf-8"', 'text/xml;charset=utf-8', true],
    ['Text/XML; Charset=UTF-8', 'text/xml; charset=utf-8', true],
    ['multipart/mixed; boundary=A; charset=utf-8', 'multipart/mixed; charset=utf-8; boundary=A', true],
    ['text/xml; charset=utf-8', 'application/xml; charset=utf-8', false],
    ['text/plain; charset=utf-8', 'text/plain; charset=iso-8859-1', false],
    ['multipart/mixed; boundary=A', 'multipart/mixed; boundary=a', false],
    ['text/plain', 'text/plain; charset=utf-8', false],
  ])('Content-Type %s against %s: equal %s', (a, b, equal) => {
    expect(sameMediaType(a, b)).toBe(equal);
  });

  it('the order of properties within a PROPFIND prop element is no difference; a missing or changed property is', () => {
    const recorded = propstat('<D:getcontentlength>5</D:getcontentlength><D:displayname>a.txt</D:displayname>');
    const reordered = propstat('<D:displayname>a.txt</D:displayname><D:getcontentlength>5</D:getcontentlength>');
    expect(compareXml(parsed(recorded), parsed(reordered))).toEqual([]);
    const changed = propstat('<D:displayname>a.txt</D:displayname><D:getcontentlength>6</D:getcontentlength>');
    expect(compareXml(parsed(recorded), parsed(changed))).toEqual([
      '/D:multistatus/D:response/D:propstat/D:prop/D:getcontentlength text: expected "5", got "6"',
    ]);
    // Order still counts everywhere else: the responses of a multistatus, a /v2 listing.
    expect(compareXml(parsed('<list><a/><b/></list>'), parsed('<list><b/><a/></list>'))).not.toEqual([]);
  });
});
