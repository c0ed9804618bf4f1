import { describe, expect, it } from 'vitest';
import {
  EntityError,
  parseBoolean,
  parseContainerInfo,
  parseFileInfo,
  parseTagInfo,
} from '../../../src/xml/requests.js';

const buf = (s: string) => Buffer.from(s, 'utf8');

describe('request entity parsing', () => {
  it.each([
    [
      '<file><name>a</name><mime_type>text/plain</mime_type><public>false</public></file>',
      { name: 'a', mimeType: 'text/plain', public: false },
    ],
    ['<file><name> spaced </name><public>True</public></file>', { name: ' spaced ', public: true }],
    ['\uFEFF<?xml version="1.0" encoding="utf-8"?>\n<file>\n  <name>bom</name>\n</file>', { name: 'bom' }],
    [
      '<file xmlns:x="http://www.w3.org/1999/xlink"><name>m</name><parent x:href="http://h/v2/containers/P"/></file>',
      { name: 'm', parentHref: 'http://h/v2/containers/P' },
    ],
  ])('parses file-info %s', (xml, expected) => {
    const parsed = parseFileInfo(buf(xml));
    for (const [k, v] of Object.entries(expected)) expect(parsed[k as keyof typeof parsed]).toEqual(v);
  });

  it.each([
    ['<container><name>x</name>', 'malformed'],
    ['<file><name>x</name></file>', 'invalid'],
    ['', 'invalid'],
    ['<!DOCTYPE x [<!ENTITY a "b">]><container><name>&a;</name></container>', 'malformed'],
  ])('refuses container-info %s as %s', (xml, kind) => {
    expect(() => parseContainerInfo(buf(xml))).toThrow(EntityError);
    try {
      parseContainerInfo(buf(xml));
    } catch (err) {
      expect((err as EntityError).kind).toBe(kind);
    }
  });

  it('classifies bodies holding a NUL or mostly undecodable as binary, a stray byte and control characters as malformed', () => {
    expect(() => parseTagInfo(Buffer.from([0x3c, 0x00, 0x3e]))).toThrow(/binary/);
    expect(() => parseTagInfo(Buffer.from([0xff, 0xfe, 0xfd]))).toThrow(/binary/);
    expect(() => parseTagInfo(Buffer.alloc(4096, 0xff))).toThrow(/binary/);
    expect(() => parseTagInfo(Buffer.from('<tag><name>caf\xe9</name></tag>', 'latin1'))).toThrow(/not valid UTF-8/);
    expect(() => parseTagInfo(Buffer.from('<tag><name>a\u0007</name></tag>'))).toThrow(/U\+0007/);
    expect(parseTagInfo(buf('<tag><name>héllo</name></tag>\r\n\t'))).toEqual({ name: 'héllo' });
    expect(() => parseTagInfo(Buffer.from([0, 1, 2, 3]))).toThrow(/binary/);
  });

  it.each([
    ['true', true],
    ['True', true],
    ['false', false],
    ['False', false],
    [undefined, undefined],
  ])('parseBoolean(%s)', (raw, expected) => {
    expect(parseBoolean(raw, 'public')).toBe(expected);
  });
});
