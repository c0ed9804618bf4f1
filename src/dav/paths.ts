import { badRequest } from '../http/errors.js';

/**
 * Splits a /dav path into decoded container and file names. Names are store keys, never filesystem
 * paths, but "." / ".." and encoded slashes are still refused so a path means one thing only.
 */
export function davNames(path: string): string[] {
  const names: string[] = [];
  for (const raw of path.split('/')) {
    if (raw === '') continue;
    let name: string;
    try {
      name = decodeURIComponent(raw);
    } catch {
      throw badRequest(`bad percent-encoding in "${raw}"`);
    }
    if (name === '.' || name === '..' || name.includes('/') || name.includes('\\') || name.includes('\0')) {
      throw badRequest(`"${name}" is not a valid path segment`);
    }
    names.push(name.normalize('NFC'));
  }
  return names;
}
