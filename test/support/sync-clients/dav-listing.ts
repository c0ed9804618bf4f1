// Reading both sides for the test sync clients: the account by one WebDAV PROPFIND, the folder by a walk.
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface Side {
  kind: 'file' | 'folder';
  /** The folder's files: their content hash. */
  sha256?: string;
  /** The account's files: their ETag. */
  etag?: string;
}

export const sha256 = (content: Buffer | string): string => createHash('sha256').update(content).digest('hex');

const unescapeXml = (s: string): string =>
  s.replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e]!);

/** "/Documents/a b.txt" -> "/dav/Documents/a%20b.txt". */
export const davPath = (path: string): string => `/dav${path.split('/').map(encodeURIComponent).join('/')}`;

/** Every file and folder of the account, by path, from one Depth: infinity PROPFIND. */
export async function remoteListing(url: string, auth: string): Promise<Map<string, Side>> {
  const res = await fetch(`${url}/dav/`, {
    method: 'PROPFIND',
    headers: { Authorization: auth, Depth: 'infinity', 'Content-Type': 'application/xml' },
    body: '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:resourcetype/><D:getetag/></D:prop></D:propfind>',
  });
  if (res.status !== 207) throw new Error(`PROPFIND / answered ${res.status}`);
  const xml = await res.text();
  const found = new Map<string, Side>();
  for (const [, body] of xml.matchAll(/<D:response>([\s\S]*?)<\/D:response>/g)) {
    const href = unescapeXml(/<D:href>([\s\S]*?)<\/D:href>/.exec(body!)![1]!);
    const path = href
      .replace(/^\/dav/, '')
      .replace(/\/$/, '')
      .split('/')
      .map((s) => decodeURIComponent(s))
      .join('/');
    if (path === '') continue;
    const etag = /<D:getetag>([\s\S]*?)<\/D:getetag>/.exec(body!)?.[1];
    found.set(
      path,
      /<D:collection\/>/.test(body!) ? { kind: 'folder' } : { kind: 'file', etag: etag && unescapeXml(etag) },
    );
  }
  return found;
}

/** Every file and folder of the synced folder, by path. */
export async function localListing(dir: string): Promise<Map<string, Side>> {
  const found = new Map<string, Side>();
  const work = [''];
  for (let rel = work.pop(); rel !== undefined; rel = work.pop()) {
    for (const name of await readdir(join(dir, rel))) {
      const path = `${rel}/${name}`;
      if ((await stat(join(dir, path))).isDirectory()) {
        found.set(path, { kind: 'folder' });
        work.push(path);
      } else found.set(path, { kind: 'file', sha256: sha256(await readFile(join(dir, path))) });
    }
  }
  return found;
}
