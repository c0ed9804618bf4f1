import { invalid } from './errors.js';

/** Inferred limit: the interface document gives none; 255 matches common filesystems. */
const MAX_NAME_LENGTH = 255;

/**
 * Characters XML 1.0 cannot carry (beyond the controls): U+FFFE, U+FFFF and a lone surrogate. A name
 * holding one would make every listing that shows it (PROPFIND, /v2 XML) not well-formed.
 */
const NOT_XML = /[\uFFFE\uFFFF]|\p{Cs}/u;

/**
 * A container or file name: non-empty, at most 255 characters, no slash, backslash, control character
 * or character that XML cannot carry.
 */
export function checkName(raw: string | undefined): string {
  if (raw === undefined) throw invalid('name is required');
  const name = raw.normalize('NFC');
  if (name.length === 0 || name.trim().length === 0) throw invalid('name must not be empty');
  if (name.length > MAX_NAME_LENGTH) throw invalid(`name is longer than ${MAX_NAME_LENGTH} characters`);
  // Both separators are refused so every name has one WebDAV address on every client OS.
  if (name.includes('/') || name.includes('\\')) throw invalid('name must not contain "/" or "\\"');
  if (name === '.' || name === '..') throw invalid(`"${name}" is not a valid name`);

  if (/[\u0000-\u001f\u007f]/.test(name)) throw invalid('name must not contain control characters');
  if (NOT_XML.test(name)) throw invalid('name must not contain U+FFFE, U+FFFF or an unpaired surrogate');
  return name;
}

/** The last segment of an uploaded filename; one client sends "\name", browsers may send a path. */
export function baseName(filename: string): string {
  const parts = filename.split(/[\\/]/);
  return parts[parts.length - 1] ?? '';
}
