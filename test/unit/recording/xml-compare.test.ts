import { describe, expect, it } from 'vitest';
import { compareXml, parseOrdered } from '../../../src/recording/xml-compare.js';

const parsed = (text: string) => {
  const doc = parseOrdered(text);
  if (!doc) throw new Error(`not XML: ${text}`);
  return doc;
};

const FILE = (name: string, extra = '') =>
  `<file xlink:href="{{baseUrl}}/v2/files/1" xlink:type="simple"><name>${name}</name><bytes>5</bytes>${extra}</file>`;

describe('XML comparison: what verify reports between a recorded and an emulated answer', () => {
  it.each<[string, string, string, string[]]>([
    ['the same document', FILE('a.txt'), FILE('a.txt'), []],
    ['layout whitespace between elements', FILE('a.txt'), FILE('a.txt').replace(/></g, '>\n  <'), []],
    ['whitespace around a text', '<a><name>x</name></a>', '<a><name>  x\n</name></a>', []],
    ['a character reference against the character', '<a><name>caf&#233;</name></a>', '<a><name>café</name></a>', []],
    ['an entity against the character', '<a><name>a &amp; b</name></a>', '<a><name>a &#38; b</name></a>', []],
    ['another text', FILE('a.txt'), FILE('b.txt'), ['/file/name text: expected "a.txt", got "b.txt"']],
    [
      'text that differs inside (not only around)',
      '<a>x y</a>',
      '<a>x  y</a>',
      ['/a text: expected "x y", got "x  y"'],
    ],
    ['another attribute value', '<a href="x"/>', '<a href="y"/>', ['/a/@href: expected "x", got "y"']],
    [
      'an attribute missing',
      '<a href="x" type="simple"/>',
      '<a href="x"/>',
      ['/a/@type: expected "simple", got nothing'],
    ],
    ['an attribute too many', '<a/>', '<a extra="1"/>', ['/a/@extra: expected nothing, got "1"']],
    [
      'another element in a place',
      '<a><name>x</name><bytes>1</bytes></a>',
      '<a><name>x</name><size>1</size></a>',
      ['/a/ element 2: expected <bytes>, got <size>'],
    ],
    [
      'an element missing at the end',
      '<a><name>x</name><bytes>1</bytes></a>',
      '<a><name>x</name></a>',
      ['/a/ element 2: expected <bytes>, got <nothing>'],
    ],
    [
      'an element too many',
      '<a><name>x</name></a>',
      '<a><name>x</name><bytes>1</bytes></a>',
      ['/a/ element 2: expected <nothing>, got <bytes>'],
    ],
    [
      'elements in another order',
      '<a><name>x</name><bytes>1</bytes></a>',
      '<a><bytes>1</bytes><name>x</name></a>',
      ['/a/ element 1: expected <name>, got <bytes>', '/a/ element 2: expected <bytes>, got <name>'],
    ],
    [
      'repeated elements are numbered from the second',
      '<l><i>a</i><i>b</i><i>c</i></l>',
      '<l><i>a</i><i>b</i><i>d</i></l>',
      ['/l/i[3] text: expected "c", got "d"'],
    ],
    [
      'timestamps: any two integers',
      '<a><created>1700000000</created><modified>1</modified></a>',
      '<a><created>1800000000</created><modified>2</modified></a>',
      [],
    ],
    [
      'a repeated timestamp element too',
      '<l><recycleddate>1</recycleddate><recycleddate>2</recycleddate></l>',
      '<l><recycleddate>3</recycleddate><recycleddate>4</recycleddate></l>',
      [],
    ],
    [
      'a timestamp that is not an integer',
      '<a><created>1700000000</created></a>',
      '<a><created>2026-11-22</created></a>',
      ['/a/created: expected a timestamp, got "2026-11-22" (recorded "1700000000")'],
    ],
    [
      'an empty timestamp',
      '<a><accessed>1</accessed></a>',
      '<a><accessed/></a>',
      ['/a/accessed: expected a timestamp, got "" (recorded "1")'],
    ],
    [
      'a non-timestamp element that holds a number is compared by value',
      '<a><bytes>5</bytes></a>',
      '<a><bytes>6</bytes></a>',
      ['/a/bytes text: expected "5", got "6"'],
    ],
    [
      'a difference deep inside',
      '<a><b><c><d>1</d></c></b></a>',
      '<a><b><c><d>2</d></c></b></a>',
      ['/a/b/c/d text: expected "1", got "2"'],
    ],
    ['another root', '<file/>', '<container/>', ['/ element 1: expected <file>, got <container>']],
  ])('%s', (_what, expected, actual, lines) => {
    expect(compareXml(parsed(expected), parsed(actual))).toEqual(lines);
  });

  it('reports at most `limit` lines', () => {
    const many = (v: string) => `<l>${Array.from({ length: 20 }, (_, i) => `<i>${v}${i}</i>`).join('')}</l>`;
    expect(compareXml(parsed(many('a')), parsed(many('b')))).toHaveLength(10);
    expect(compareXml(parsed(many('a')), parsed(many('b')), 3)).toEqual([
      '/l/i text: expected "a0", got "b0"',
      '/l/i[2] text: expected "a1", got "b1"',
      '/l/i[3] text: expected "a2", got "b2"',
    ]);
  });
});

const MULTISTATUS = (prefix: string, props: string, declare = `xmlns:${prefix}="DAV:"`) => {
  const p = prefix ? `${prefix}:` : '';
  return `<${p}multistatus ${declare}><${p}response><${p}href>/dav/a.txt</${p}href><${p}propstat><${p}prop>${props.replaceAll('P:', p)}</${p}prop><${p}status>HTTP/1.1 200 OK</${p}status></${p}propstat></${p}response></${p}multistatus>`;
};

describe('XML comparison: namespaces by URI, and WebDAV values a server makes up by form', () => {
  it.each<[string, string, string, string[]]>([
    [
      '"D:" against "d:" for the DAV: namespace',
      MULTISTATUS('D', '<P:getcontentlength>5</P:getcontentlength>'),
      MULTISTATUS('d', '<P:getcontentlength>5</P:getcontentlength>'),
      [],
    ],
    [
      'a prefix against the default namespace',
      MULTISTATUS('D', '<P:getcontentlength>5</P:getcontentlength>'),
      MULTISTATUS('', '<P:getcontentlength>5</P:getcontentlength>', 'xmlns="DAV:"'),
      [],
    ],
    [
      'the same prefix bound to another namespace differs',
      '<a:x xmlns:a="urn:one"/>',
      '<a:x xmlns:a="urn:two"/>',
      ['/ element 1: expected <a:x>, got <a:x>'],
    ],
    [
      'an attribute through another prefix for the same namespace',
      '<f xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="x"/>',
      '<f xmlns:l="http://www.w3.org/1999/xlink" l:href="x"/>',
      [],
    ],
    [
      'an attribute value that differs through another prefix',
      '<f xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="x"/>',
      '<f xmlns:l="http://www.w3.org/1999/xlink" l:href="y"/>',
      ['/f/@xlink:href: expected "x", got "y"'],
    ],
    [
      'creationdate: two RFC 3339 times',
      MULTISTATUS('D', '<P:creationdate>2026-01-01T10:00:00Z</P:creationdate>'),
      MULTISTATUS('D', '<P:creationdate>2026-11-28T04:16:48.120+01:00</P:creationdate>'),
      [],
    ],
    [
      'creationdate: not a time',
      MULTISTATUS('D', '<P:creationdate>2026-01-01T10:00:00Z</P:creationdate>'),
      MULTISTATUS('D', '<P:creationdate>yesterday</P:creationdate>'),
      [
        '/D:multistatus/D:response/D:propstat/D:prop/D:creationdate: expected an RFC 3339 time, got "yesterday" (recorded "2026-01-01T10:00:00Z")',
      ],
    ],
    [
      'getlastmodified: two HTTP dates',
      MULTISTATUS('D', '<P:getlastmodified>Thu, 01 Jan 2026 10:00:00 GMT</P:getlastmodified>'),
      MULTISTATUS('D', '<P:getlastmodified>Sat, 28 Nov 2026 04:16:48 GMT</P:getlastmodified>'),
      [],
    ],
    [
      'getlastmodified: an ISO time is not an HTTP date',
      MULTISTATUS('D', '<P:getlastmodified>Thu, 01 Jan 2026 10:00:00 GMT</P:getlastmodified>'),
      MULTISTATUS('D', '<P:getlastmodified>2026-01-01T10:00:00Z</P:getlastmodified>'),
      [
        '/D:multistatus/D:response/D:propstat/D:prop/D:getlastmodified: expected an HTTP date, got "2026-01-01T10:00:00Z" (recorded "Thu, 01 Jan 2026 10:00:00 GMT")',
      ],
    ],
    [
      'getetag: two entity tags, strong and weak',
      MULTISTATUS('D', '<P:getetag>"abc-1"</P:getetag>'),
      MULTISTATUS('D', '<P:getetag>W/"xyz"</P:getetag>'),
      [],
    ],
    [
      'getetag: an unquoted value is not an entity tag',
      MULTISTATUS('D', '<P:getetag>"abc-1"</P:getetag>'),
      MULTISTATUS('D', '<P:getetag>abc-1</P:getetag>'),
      [
        '/D:multistatus/D:response/D:propstat/D:prop/D:getetag: expected an entity tag, got "abc-1" (recorded ""abc-1"")',
      ],
    ],
    [
      'a getetag outside the DAV: namespace is compared by value',
      '<x:getetag xmlns:x="urn:other">"a"</x:getetag>',
      '<x:getetag xmlns:x="urn:other">"b"</x:getetag>',
      ['/x:getetag text: expected ""a"", got ""b""'],
    ],
  ])('%s', (_what, expected, actual, lines) => {
    expect(compareXml(parsed(expected), parsed(actual))).toEqual(lines);
  });
});

describe('XML comparison: what counts as XML', () => {
  it.each<[string, string, boolean]>([
    ['an element', '<a/>', true],
    ['leading whitespace', '\n  <a/>', true],
    ['an XML declaration', '<?xml version="1.0" encoding="UTF-8"?><a/>', true],
    ['plain text', '404 not found\n', false],
    ['JSON', '{"a":1}', false],
    ['empty', '', false],
    ['a tag that never closes', '<a><b></a>', false],
  ])('%s', (_what, text, isXml) => {
    expect(parseOrdered(text) !== undefined).toBe(isXml);
  });
});
