import { describe, expect, it } from 'vitest';
import { EntityError, parseContainerInfo } from '../../../src/xml/requests.js';

const NAME = 'Café Zoë';
const xml = (decl: string) => `${decl}<container><name>${NAME}</name></container>`;

function utf16be(text: string): Buffer {
  const le = Buffer.from(text, 'utf16le');
  for (let i = 0; i < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1]!, le[i]!];
  return le;
}

function kindOf(body: Buffer): string {
  try {
    parseContainerInfo(body);
    return 'accepted';
  } catch (err) {
    return (err as EntityError).kind;
  }
}

describe('entity bodies decoded as declared (issue 11, item 3)', () => {
  it.each([
    [
      'UTF-16 with a little-endian BOM',
      Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from(xml('<?xml version="1.0" encoding="UTF-16"?>'), 'utf16le'),
      ]),
    ],
    [
      'UTF-16 with a big-endian BOM',
      Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(xml('<?xml version="1.0" encoding="UTF-16"?>'))]),
    ],
    [
      'UTF-16LE without a BOM (sniffed from "<?")',
      Buffer.from(xml('<?xml version="1.0" encoding="UTF-16LE"?>'), 'utf16le'),
    ],
    ['ISO-8859-1', Buffer.from(xml('<?xml version="1.0" encoding="ISO-8859-1"?>'), 'latin1')],
    ['latin1 (alias)', Buffer.from(xml("<?xml version='1.0' encoding='latin1'?>"), 'latin1')],
    [
      'UTF-8 with a BOM',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(xml('<?xml version="1.0" encoding="utf-8"?>'))]),
    ],
    ['UTF-8 without a declaration', Buffer.from(xml(''))],
  ])('decodes %s', (_what, body) => {
    expect(parseContainerInfo(body).name).toBe(NAME);
  });

  it('decodes US-ASCII, and refuses a byte above 127 in it as malformed (400)', () => {
    expect(
      parseContainerInfo(
        Buffer.from('<?xml version="1.0" encoding="US-ASCII"?><container><name>caf&#233;</name></container>'),
      ).name,
    ).toBe('café');
    expect(kindOf(Buffer.from(xml('<?xml version="1.0" encoding="US-ASCII"?>'), 'latin1'))).toBe('malformed');
  });

  it('an encoding we do not read is "encoding" (415)', () => {
    expect(kindOf(Buffer.from(xml('<?xml version="1.0" encoding="Shift_JIS"?>'), 'latin1'))).toBe('encoding');
  });

  it('bytes that contradict the declaration are malformed (400)', () => {
    expect(kindOf(Buffer.from(xml('<?xml version="1.0" encoding="UTF-16"?>')))).toBe('malformed');
    const bom8 = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(xml('<?xml version="1.0" encoding="ISO-8859-1"?>')),
    ]);
    expect(kindOf(bom8)).toBe('malformed');
  });

  it('ISO-8859-1 bytes sent without a declaration are not UTF-8: malformed (400), not binary', () => {
    expect(kindOf(Buffer.from(xml(''), 'latin1'))).toBe('malformed');
  });

  it('a UTF-16 BOM followed by bytes that mostly are not UTF-16 is binary; one lone surrogate in a text is malformed', () => {
    expect(kindOf(Buffer.from([0xff, 0xfe, 0x00, 0xd8, 0x41, 0x00]))).toBe('binary'); // a lone surrogate, nearly all of it
    const text = Buffer.from(xml('<?xml version="1.0" encoding="UTF-16"?>'), 'utf16le');
    expect(kindOf(Buffer.concat([Buffer.from([0xff, 0xfe]), text, Buffer.from([0x00, 0xd8])]))).toBe('malformed');
  });
});
