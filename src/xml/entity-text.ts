/** Why a request entity was refused: 'binary' bodies got a 500 from the real service, 'encoding' is 415, the rest are 400s. */
export class EntityError extends Error {
  readonly kind: 'binary' | 'encoding' | 'malformed' | 'invalid';
  constructor(kind: 'binary' | 'encoding' | 'malformed' | 'invalid', message: string) {
    super(message);
    this.name = 'EntityError';
    this.kind = kind;
  }
}

type Decoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'latin1' | 'ascii';

/** Encoding labels we decode (IANA names and common aliases), lowercased. */
const LABELS: Record<string, Decoding> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  'utf-16': 'utf-16le', // byte order from the BOM or the first bytes
  'utf-16le': 'utf-16le',
  'utf-16be': 'utf-16be',
  'iso-8859-1': 'latin1',
  'iso_8859-1': 'latin1',
  'iso8859-1': 'latin1',
  latin1: 'latin1',
  'latin-1': 'latin1',
  l1: 'latin1',
  'us-ascii': 'ascii',
  ascii: 'ascii',
};

/**
 * Decodes an XML entity body as XML 1.0 (appendix F) says: a byte order mark or the first bytes
 * give the encoding family, the XML declaration names it. UTF-8, UTF-16 (LE/BE), ISO-8859-1 and
 * US-ASCII are read; another declared encoding is 415. A body holding a NUL, or whose bytes mostly do not
 * decode, is 'binary' (the real service's 500 + close); a few bytes that do not decode are 'malformed' (400).
 */
export function decodeEntityText(body: Buffer): string {
  const sniffed = sniff(body);
  const wide = sniffed.family !== 'utf-8';
  const start = body.subarray(sniffed.skip, sniffed.skip + 400);
  const head = (wide ? decodeStrict(start, sniffed.family, true) : start.toString('latin1')) ?? '';
  const label = /^\s*<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(head)?.[1]?.toLowerCase();
  let decoding: Decoding = sniffed.family;
  if (label !== undefined) {
    const declared = LABELS[label];
    if (declared === undefined)
      throw new EntityError(
        'encoding',
        `the XML declaration names encoding "${label}"; accepted: UTF-8, UTF-16, ISO-8859-1, US-ASCII`,
      );
    const declaredWide = declared === 'utf-16le' || declared === 'utf-16be';
    if (wide !== declaredWide || (sniffed.bom === 'utf-8' && declared !== 'utf-8')) {
      throw new EntityError('malformed', `the body's bytes are not in the declared encoding "${label}"`);
    }
    if (!wide) decoding = declared;
  }
  const text = decodeStrict(body.subarray(sniffed.skip), decoding, false);
  if (text === undefined && decoding === 'ascii')
    throw new EntityError('malformed', 'the body declared US-ASCII holds bytes above 127');

  // Text never holds a NUL, nor mostly bytes that do not decode: such a body is binary. A few bytes that do
  // not decode, and characters XML cannot carry (refused by the parser), are a client's mistake in a text
  // body: a 400 that says which.
  const binary =
    text === undefined ? (!wide && body.includes(0)) || mostlyUndecodable(body, decoding) : text.includes('\u0000');
  if (binary) throw new EntityError('binary', 'the request body is binary, not an XML entity');
  if (text === undefined) {
    throw new EntityError(
      'malformed',
      `the body is not valid ${wide ? 'UTF-16' : 'UTF-8'}: it holds bytes that encode no character ` +
        '(an unpaired surrogate, or text in an encoding its XML declaration does not name)',
    );
  }
  return text;
}

/** More than one byte in ten does not decode: binary data, not text with a stray byte. */
function mostlyUndecodable(body: Buffer, decoding: Decoding): boolean {
  const loose = new TextDecoder(decoding === 'utf-16be' ? 'utf-16be' : decoding === 'utf-16le' ? 'utf-16le' : 'utf-8');
  let replaced = 0;
  for (const c of loose.decode(body)) if (c === '\uFFFD') replaced++;
  return replaced * 10 > body.length;
}

interface Sniffed {
  family: Decoding;
  bom?: 'utf-8' | 'utf-16';
  skip: number;
}

function sniff(b: Buffer): Sniffed {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return { family: 'utf-8', bom: 'utf-8', skip: 3 };
  if (b[0] === 0xff && b[1] === 0xfe) return { family: 'utf-16le', bom: 'utf-16', skip: 2 };
  if (b[0] === 0xfe && b[1] === 0xff) return { family: 'utf-16be', bom: 'utf-16', skip: 2 };
  if (b[0] === 0x3c && b[1] === 0x00 && b[2] === 0x3f && b[3] === 0x00) return { family: 'utf-16le', skip: 0 };
  if (b[0] === 0x00 && b[1] === 0x3c && b[2] === 0x00 && b[3] === 0x3f) return { family: 'utf-16be', skip: 0 };
  return { family: 'utf-8', skip: 0 };
}

/** The text, or undefined when the bytes are not valid in that encoding. `partial` tolerates a cut last character. */
function decodeStrict(bytes: Buffer, decoding: Decoding, partial: boolean): string | undefined {
  if (decoding === 'latin1') return bytes.toString('latin1');
  if (decoding === 'ascii') return bytes.every((x) => x < 0x80) ? bytes.toString('latin1') : undefined;
  try {
    return new TextDecoder(decoding, { fatal: !partial }).decode(bytes);
  } catch {
    return undefined;
  }
}
