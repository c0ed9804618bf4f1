import { BASE_URL_TOKEN, headerValue, type Exchange } from './format.js';

/** A /dav path's names, decoded and NFC as the store keeps them, joined by "/"; undefined when unreadable. */
export function davPath(path: string): string | undefined {
  const m = /^\/dav(\/[^?#]*)?(?:[?#]|$)/.exec(path);
  if (!m) return undefined;
  try {
    return (m[1] ?? '')
      .split('/')
      .filter((segment) => segment !== '')
      .map((segment) => decodeURIComponent(segment).normalize('NFC'))
      .join('/');
  } catch {
    return undefined;
  }
}

/** The /dav path a COPY or MOVE's Destination names (an absolute URI or a path). */
export function destinationOf(e: Exchange): string | undefined {
  const destination = headerValue(e.request.headers, 'destination')?.split(BASE_URL_TOKEN).join('');
  const path = destination?.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  return path === undefined ? undefined : davPath(path);
}

export const under = (path: string, folder: string): boolean => path === folder || path.startsWith(`${folder}/`);
