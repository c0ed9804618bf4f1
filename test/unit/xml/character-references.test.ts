import { describe, expect, it } from 'vitest';
import { parseXml } from '../../../src/xml/codec.js';
import { EntityError, parseContainerInfo, parseFileInfo } from '../../../src/xml/requests.js';

const buf = (s: string) => Buffer.from(s, 'utf8');

describe('REST entity text as XML parsers read it (issue 11, items 1 and 2)', () => {
  it('item 1: decodes decimal and hexadecimal character references, as the C# client sends them (HtmlEncode)', () => {
    expect(parseContainerInfo(buf('<container><name>caf&#233; &#x1F600;</name></container>')).name).toBe('café 😀');
    expect(parseContainerInfo(buf('<container><name>&#65;&#x42;&#x0043;</name></container>')).name).toBe('ABC');
  });

  it('item 1: the five predefined entities are decoded once, never twice', () => {
    const { name } = parseFileInfo(
      buf('<file><name>a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos; &amp;#233;</name></file>'),
    );
    expect(name).toBe('a & b <c> "d" \'e\' &#233;');
  });

  it.each([
    ['a DOCTYPE', '<!DOCTYPE container [<!ENTITY e "x">]><container><name>&e;</name></container>'],
    ['a custom entity', '<container><name>&e;</name></container>'],
    ['an HTML entity', '<container><name>caf&eacute;</name></container>'],
    ['an upper-case X in a hexadecimal reference', '<container><name>&#X41;</name></container>'],
    ['a reference to NUL', '<container><name>a&#0;b</name></container>'],
    ['a reference to a surrogate', '<container><name>&#xD800;</name></container>'],
  ])('item 1: %s stays refused (400)', (_what, xml) => {
    expect(() => parseContainerInfo(buf(xml))).toThrow(EntityError);
  });

  it('item 2: leading and trailing spaces of a name are kept; layout between elements is not text', () => {
    expect(parseContainerInfo(buf('<container>\n  <name>  two spaces  </name>\n</container>')).name).toBe(
      '  two spaces  ',
    );
    expect(parseFileInfo(buf('<file><name>\ttab\n</name><public> true </public></file>'))).toMatchObject({
      name: '\ttab\n',
      public: true,
    });
    expect(parseXml('<a x="1">\n  <b> c </b>\n  <b/>\n</a>')).toEqual({ a: { '@_x': '1', b: [' c ', ''] } });
  });

  it('item 2: CDATA is text too, kept exactly', () => {
    expect(parseContainerInfo(buf('<container><name><![CDATA[ <raw> & ]]></name></container>')).name).toBe(' <raw> & ');
  });
});

describe('element names that are Object.prototype keys', () => {
  it.each(['__proto__', 'constructor', 'prototype'])(
    '<%s> is refused as malformed (400), never merged into the fields',
    (name) => {
      expect(() => parseContainerInfo(buf(`<container><${name}><name>evil</name></${name}></container>`))).toThrow(
        EntityError,
      );
    },
  );
});
