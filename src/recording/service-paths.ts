/**
 * Whether a recorded request is one to the service: `/v2`, `/dav` or the CDMI queues (`/cdmi`), with
 * no dot segment (raw or percent-encoded), so "/v2/../__admin/scenario" is not. A recording is not
 * trusted: verify sends only these, and reports the rest (the admin API, a web app's own pages, a
 * WebDAV server served at `/`) as skipped.
 */
export function onServiceSurface(path: string): boolean {
  if (!/^\/(v2|dav|cdmi)(\/|$)/.test(path)) return false;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A badly encoded path is judged as it stands.
  }
  return !decoded.split(/[\\/]/).some((segment) => segment === '..' || segment === '.');
}
