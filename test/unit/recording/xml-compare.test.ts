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
