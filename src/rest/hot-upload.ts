import type { IncomingMessage, ServerResponse } from 'node:http';
import busboy from 'busboy';
import type { CloudStore } from '../domain/cloud-store.js';
import { guessMimeType } from '../domain/mime-types.js';
import { baseName } from '../domain/names.js';
import { requestOrigin } from '../http/request-origin.js';
import { mediaTypeOf } from '../http/media-type.js';
import { Links } from '../xml/links.js';
import { authorised, hotRoutes, type QuietPath } from './hot-routes.js';
import { MEDIA } from './request-params.js';

/** Takes a request (and then answers it or calls `decline`) and says true, or says false having done nothing. */
export type PreDispatchUpload = (req: IncomingMessage, res: ServerResponse, decline: () => void) => boolean;

/** Bodies up to this size are read whole before anything is decided: memory stays bounded. */
export const HOT_UPLOAD_MAX_BYTES = 64 * 1024;

const CONTENTS = /^\/v2\/containers\/([\w-]+)\/contents$/;
/** Hrefs that express's res.location() (encodeurl) leaves as they are. */
const PLAIN_HREF = /^[\w.:/[\]-]+$/;
/** multer's limits on the full path (rest/multipart-upload.ts): the same parts count as unusual here. */
const LIMITS = { files: 1, fields: 100, fieldSize: 1024 * 1024 };

interface FilePart {
  filename: string;
  mimeType: string;
  /** Set when the part's stream has ended. */
  bytes: Buffer | undefined;
}

/**
 * The plainest upload, a new file from a small multipart body, answered without express: on the 1 KiB
 * upload the profile put express and multer at about a quarter of the CPU (issue 9). Taken only for a
 * POST to a container's contents with no query, multipart/form-data with a boundary, a Content-Length
 * of at most 64 KiB, X-Client-Specification 2, good credentials, an allowed Host and an existing
 * container. The body is read and put back (unshift) before anything is decided, so whatever is
 * unusual (a field, a second or empty file part, a parse error, a limit, a refused name, a scenario
 * with something to do) is declined with the request untouched and goes the full way through express,
 * which gives the same answer; rest/multipart-upload.ts stays the one that words every error.
 */
export function hotUpload(store: CloudStore, path: QuietPath): PreDispatchUpload {
  // A declined request comes by again on its way into express: it is not read a second time.
  const taken = new WeakSet<IncomingMessage>();
  return (req, res, decline) => {
    if (req.method !== 'POST' || taken.has(req)) return false;
    const url = req.url ?? '';
    const contents = CONTENTS.exec(url);
    if (!contents) return false;
    const headers = req.headers;
    const length = Number(headers['content-length']);
    if (!(length > 0 && length <= HOT_UPLOAD_MAX_BYTES) || headers['transfer-encoding'] !== undefined) return false;
    if (headers.expect !== undefined || headers['x-client-specification'] !== '2') return false;
    if (mediaTypeOf(headers['content-type']) !== MEDIA.multipart) return false;
    if (!/;\s*boundary=/i.test(headers['content-type'] ?? '')) return false;
    const user = authorised(headers.authorization, path.users());
    if (user === undefined || !path.hostAllowed(headers.host)) return false;
    const parentId = contents[1]!;
    const links = new Links(requestOrigin(req, path.publicUrl));
    if (!PLAIN_HREF.test(links.resource('file', 'x'))) return false;
    try {
      store.get(user, parentId, 'container');
    } catch {
      return false;
    }
    taken.add(req);
    peekBody(req, length, (body) => {
      if (!body) return decline();
      void plainFilePart(req, body).then(async (part) => {
        if (!part) return decline();
        const scenario = path.admitQuiet(res);
        if (scenario === undefined) return decline();
        const name = baseName(part.filename);
        let id: string;
        try {
          const node = await store.createFile(
            user,
            parentId,
            { name, mimeType: guessMimeType(name, part.mimeType) },
            part.bytes,
          );
          id = node.id;
        } catch {
          return decline(); // a refused name, a lock, a full disk: nothing was kept; express words it
        }
        const href = links.resource('file', id);
        path.log?.(req, res, url, () => user);
        path.journal(req, res, url, scenario);
        // The body is read again (the journal's tap sees it), then answered as sendCreated does.
        req.once('end', () => {
          const body = `${href}\r\n`;
          res.writeHead(201, {
            Location: href,
            'Content-Type': 'text/uri-list',
            'Content-Length': Buffer.byteLength(body),
          });
          res.end(body);
        });
        req.resume();
      });
    });
    return true;
  };
}

/**
 * Reads a body of `length` bytes and puts it back into the request unread, then hands over a copy;
 * undefined when the request ended or failed first (the full path sees the same request).
 */
function peekBody(req: IncomingMessage, length: number, then: (body: Buffer | undefined) => void): void {
  const chunks: Buffer[] = [];
  let got = 0;
  const done = (body: Buffer | undefined): void => {
    req.off('readable', onReadable);
    req.off('end', onEnd);
    req.off('error', onEnd);
    // Back to the front in reverse order, before 'end' can be emitted: the request reads as if untouched.
    for (let i = chunks.length - 1; i >= 0; i--) req.unshift(chunks[i]);
    then(body);
  };
  const onReadable = (): void => {
    let chunk: Buffer | null;
    while ((chunk = req.read() as Buffer | null) !== null) {
      chunks.push(chunk);
      got += chunk.length;
    }
    if (got >= length) done(got === length ? Buffer.concat(chunks, got) : undefined);
  };
  const onEnd = (): void => {
    req.off('readable', onReadable);
    req.off('end', onEnd);
    req.off('error', onEnd);
    then(undefined);
  };
  req.on('readable', onReadable);
  req.once('end', onEnd);
  req.once('error', onEnd);
}

/** The body's one file part, when it is the only part and nothing about it is unusual. */
function plainFilePart(req: IncomingMessage, body: Buffer): Promise<(FilePart & { bytes: Buffer }) | undefined> {
  return new Promise((resolve) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: LIMITS });
    } catch {
      return resolve(undefined);
    }
    let part: FilePart | undefined;
    let unusual = false;
    const unusualPart = (): void => void (unusual = true);
    parser.on('file', (field, stream, info) => {
      if (part || field == null || !info.filename) {
        unusual = true;
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      const found: FilePart = { filename: info.filename, mimeType: info.mimeType, bytes: undefined };
      part = found;
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => (found.bytes = Buffer.concat(chunks)));
      stream.on('limit', unusualPart);
      stream.on('error', unusualPart);
    });
    parser.on('field', unusualPart);
    parser.on('filesLimit', unusualPart);
    parser.on('fieldsLimit', unusualPart);
    parser.on('partsLimit', unusualPart);
    parser.on('error', () => resolve(undefined));
    parser.on('close', () => resolve(unusual || !part?.bytes ? undefined : (part as FilePart & { bytes: Buffer })));
    parser.end(body);
  });
}

/** The pre-dispatch of the app: the hot reads (rest/hot-routes.ts), then the plain upload. */
export function hotPaths(store: CloudStore, path: QuietPath): PreDispatchUpload {
  const reads = hotRoutes(store, path);
  const upload = hotUpload(store, path);
  return (req, res, decline) => reads(req, res) || upload(req, res, decline);
}
