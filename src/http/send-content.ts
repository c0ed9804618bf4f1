import type { NextFunction, Request, Response } from 'express';
import type { BlobLease, BlobStore } from '../domain/model.js';
import type { NodeRecord } from '../domain/model.js';

/**
 * send hands its options on to fs.createReadStream: 1 MiB reads serve a large file at memory speed
 * (the default 64 KiB: about 0.4x). Conditional requests, Range and HEAD stay send's.
 */
const SEND_OPTIONS = {
  etag: false,
  lastModified: false,
  cacheControl: false,
  dotfiles: 'allow' as const,
  acceptRanges: true,
  highWaterMark: 1024 * 1024,
};

/** The strong ETag of a file's content, shared by REST and WebDAV so both views agree. */
export function contentEtag(node: NodeRecord): string {
  return `"${node.id}-${node.version}"`;
}

/**
 * Sends a file's bytes with ETag, Last-Modified and Accept-Ranges; `send` (under res.sendFile)
 * answers Range with 206/416 and If-None-Match/If-Modified-Since with 304 against these headers.
 * A plain GET or HEAD of a blob memory mode holds, and a plain GET of one of at most 16 MiB, is
 * answered from memory (held, or the blob cache) in one write with the same headers: streaming allocates the file's size in buffers per request, and that garbage, not the
 * disk, was what bounded an 8 MiB GET (a major GC every few requests, profiled).
 */
export function sendContent(res: Response, next: NextFunction, node: NodeRecord, blobs: BlobStore): void {
  res.setHeader('ETag', contentEtag(node));
  res.setHeader('Last-Modified', new Date(node.modified * 1000).toUTCString());
  res.setHeader('Content-Type', node.mimeType || 'application/octet-stream');
  if (!node.blobId) {
    res.status(200).end();
    return;
  }
  const blobId = node.blobId;
  const stream = (): void => {
    const range = res.req.headers.range;
    if (range !== undefined) res.req.headers.range = clampSuffixRanges(range, node.bytes);
    // send serves files: a blob memory mode holds is written to its file first (blob-store.ts fileOf).
    blobs.fileOf(blobId).then(
      (path) =>
        res.sendFile(path, SEND_OPTIONS, (err?: Error) => {
          if (err && !res.headersSent) next(err);
        }),
      next,
    );
  };
  if (!isPlainWholeRead(res.req)) return stream();
  const hit = blobs.inMemory(blobId);
  if (hit) return sendWhole(res, hit);
  // HEAD needs no bytes; a large blob, one that does not fit now or a failed read goes to send.
  if (res.req.method !== 'GET' || node.bytes > blobs.cache.maxEntryBytes) return stream();
  blobs.whole(blobId, node.bytes).then(
    (lease) => (lease ? sendWhole(res, lease) : stream()),
    () => stream(),
  );
}

/** Headers under which send answers 206, 304, 412 or 416: such requests keep going through it. */
const SEND_DECIDES = ['range', 'if-match', 'if-none-match', 'if-modified-since', 'if-unmodified-since', 'if-range'];

function isPlainWholeRead(req: Request): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && SEND_DECIDES.every((h) => req.headers[h] === undefined);
}

/**
 * What send answers to a plain GET or HEAD (its headers in its order), from bytes in memory in one
 * write; the lease holds them in the cache's count until the answer is written or the client is gone.
 */
function sendWhole(res: Response, lease: BlobLease): void {
  if (res.headersSent || res.closed) return lease.release();
  res.once('close', lease.release);
  if (!res.getHeader('Accept-Ranges')) res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Content-Length', lease.bytes.length);
  if (res.req.method === 'HEAD') res.end();
  else res.end(lease.bytes);
}

/**
 * RFC 9110 14.1.3: a suffix range longer than the representation selects all of it. range-parser
 * (1.3.0, the newest, used by send) answers 416 for it, so "bytes=-100" on 59 bytes becomes "bytes=0-".
 * An empty file keeps its 416: no suffix of it is satisfiable.
 */
export function clampSuffixRanges(header: string, size: number): string {
  if (size === 0) return header;
  return header.replace(/([=,]\s*)-(\d+)(?=\s*(?:,|$))/g, (whole, lead: string, digits: string) =>
    Number(digits) > size ? `${lead}0-` : whole,
  );
}

/**
 * Content-Range on a PUT: "bytes a-b/*" or "bytes a-b/total"; only the offset is taken, the length is the
 * body's (a real client sends "bytes 0-2/*" with 2 bytes, an exclusive end).
 */
export function parseContentRangeOffset(header: string | undefined): number | undefined | 'invalid' {
  if (header === undefined) return undefined;
  const match = /^\s*bytes\s+(\d+)-(\d+)\/(\d+|\*)\s*$/i.exec(header);
  if (!match) return 'invalid';
  return Number(match[1]);
}
