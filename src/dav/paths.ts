import { HttpError, badRequest } from '../http/errors.js';

/**
 * Splits a /dav path into decoded container and file names. Names are store keys, never filesystem
 * paths, but "." / ".." (also percent-encoded), backslashes and encoded slashes are refused, so a path
 * means one thing only and can never climb out of the user's tree.
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

/** The href of a node under the /dav mount: each name percent-encoded, collections end with "/". */
export function davHref(base: string, names: string[], collection: boolean): string {
  const path = names.map((n) => encodeURIComponent(n)).join('/');
  if (names.length === 0) return `${base}/`;
  return `${base}/${path}${collection ? '/' : ''}`;
}

/**
 * The names a Destination header (or an If header's resource tag) points at: an absolute URI on this
 * server or an absolute path, under the /dav mount. Another host is 502 (RFC 4918 9.8.5).
 */
export function namesOfUri(uri: string, base: string, host: string | undefined): string[] {
  let url: URL;
  try {
    url = new URL(uri, `http://${host ?? 'localhost'}`);
  } catch {
    throw badRequest(`"${uri}" is not a URI`);
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(uri) && host && url.host !== host) {
    throw new HttpError(502, `destination ${uri} is on another server`);
  }
  const path = url.pathname;
  if (path !== base && !path.startsWith(`${base}/`)) throw new HttpError(502, `destination ${uri} is outside ${base}`);
  return davNames(path.slice(base.length));
}
