import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CloudStore } from '../domain/cloud-store.js';
import type { NodeRecord } from '../domain/model.js';
import { davNames } from '../dav/paths.js';
import { contentEtag } from '../http/send-content.js';
import type { QuietPath } from './hot-routes.js';

const REST_CONTENT = /^\/v2\/files\/([\w-]+)\/content$/;
/** Headers under which the express path decides more than "200, the bytes": 206, 304, 412, 416, WebDAV's If. */
const DECIDING = ['range', 'if-match', 'if-none-match', 'if-modified-since', 'if-unmodified-since', 'if-range', 'if'];

/** True for a URL hotContent may answer (its caller checks credentials and Host first). */
export function isContentUrl(url: string): boolean {
  return url.endsWith('/content') || (url.startsWith('/dav/') && !url.endsWith('/'));
}

/**
 * A file's content whose bytes are in memory (held, or in the blob cache), by /v2/files/<id>/content or by its /dav path,
 * answered without express with the headers the express path gives (http/send-content.ts, and DAV
 * from dav/index.ts): with the bytes in memory, express's routers were about a quarter of an 8 MiB
 * GET's CPU. hotRoutes calls it for a GET with the spec header, good credentials (`user`) and an
 * allowed Host; anything else (a query, a conditional or Range header, a miss) is declined with
 * nothing done.
 */
export function hotContent(
  store: CloudStore,
  path: QuietPath,
  req: IncomingMessage,
  res: ServerResponse,
  user: string,
): boolean {
  const url = req.url ?? '';
  if (url.includes('?') || url.includes('#') || DECIDING.some((h) => req.headers[h] !== undefined)) return false;
  const rest = REST_CONTENT.exec(url);
  if (!rest && !url.startsWith('/dav/')) return false;
  let node: NodeRecord | undefined;
  try {
    node = rest ? store.get(user, rest[1]!, 'file') : store.resolvePath(user, davNames(url.slice('/dav'.length)));
  } catch {
    return false; // not found, someone else's, a bad name: express words the error
  }
  if (node?.kind !== 'file' || !node.blobId) return false;
  const lease = store.blobs.inMemory(node.blobId);
  if (!lease) return false;
  const scenario = path.admitQuiet(res);
  if (scenario === undefined) {
    lease.release();
    return false;
  }
  store.touchAccessed(node);
  path.log?.(req, res, url, () => user);
  path.journal(req, res, url, scenario);
  res.once('close', lease.release);
  if (!rest) res.setHeader('DAV', '1, 2');
  res.writeHead(200, {
    ETag: contentEtag(node),
    'Last-Modified': new Date(node.modified * 1000).toUTCString(),
    'Content-Type': node.mimeType || 'application/octet-stream',
    'Accept-Ranges': 'bytes',
    'Content-Length': lease.bytes.length,
  });
  res.end(lease.bytes);
  return true;
}
