import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { NextFunction, Response } from 'express';
import type { BlobStore, NodeRecord } from '../domain/model.js';
import { HttpError } from './errors.js';
import { notModified, stripWeak } from './not-modified.js';

/** Read size for a blob streamed from its file: 1 MiB reads serve a large file at memory speed (64 KiB: about 0.4x). */
const READ_BYTES = 1024 * 1024;

/** Bytes of synthetic content queued at a time (views, not copies: queuing them costs no memory). */
const VIEW_BATCH_BYTES = 4 * 1024 * 1024;

/** The strong ETag of a file's content, shared by REST and WebDAV so both views agree. */
export function contentEtag(node: NodeRecord): string {
  return `"${node.id}-${node.version}"`;
}

/**
 * Sends a file's bytes with ETag, Last-Modified and Accept-Ranges, for GET and HEAD: If-Match and
 * If-Unmodified-Since answer 412, If-None-Match and If-Modified-Since 304 (RFC 9110 13.2.2's order),
 * one Range 206 (If-Range honoured) and an unsatisfiable one 416; several ranges get the whole
 * file, as from send. The bytes come from memory when the store has them (a blob memory mode holds,
 * or one in the content cache, read into it on a miss) and are streamed from the blob's file otherwise;
 * synthetic content (storage/synthetic-content.ts) is made as it streams, range or whole.
 */
export function sendContent(res: Response, next: NextFunction, node: NodeRecord, blobs: BlobStore): void {
  const req = res.req;
  const size = node.bytes;
  res.setHeader('ETag', contentEtag(node));
  res.setHeader('Last-Modified', new Date(node.modified * 1000).toUTCString());
  res.setHeader('Content-Type', node.mimeType || 'application/octet-stream');
  res.setHeader('Accept-Ranges', 'bytes');
  if (preconditionFailed(res)) return next(new HttpError(412, 'Precondition Failed'));
  if (notModified(res)) {
    res.removeHeader('Content-Type');
    res.status(304).end();
    return;
  }
  let range: { start: number; end: number } | undefined;
  const header = req.headers.range;
  if (header !== undefined && /^ *bytes=/.test(header) && rangeIsFresh(res)) {
    req.headers.range = clampSuffixRanges(header, size);
    const ranges = req.range(size, { combine: true });
    if (ranges === -1) {
      return next(new HttpError(416, 'Range Not Satisfiable', { headers: { 'Content-Range': `bytes */${size}` } }));
    }
    if (ranges !== -2 && ranges !== undefined && ranges.length === 1) range = ranges[0]!;
  }
  if (range) {
    res.status(206);
    res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
  }
  res.setHeader('Content-Length', range ? range.end - range.start + 1 : size);
  if (req.method === 'HEAD' || !node.blobId) {
    res.end();
    return;
  }
  const blobId = node.blobId;
  // Synthetic content: made as the client takes it, as views of one small block (no copy, no cache).
  const synthetic = blobs.syntheticChunks(blobId, range);
  if (synthetic) return sendViews(res, synthetic);
  const write = (bytes: Buffer | undefined): void => {
    if (res.destroyed) return;
    if (bytes) return void res.end(range ? bytes.subarray(range.start, range.end + 1) : bytes);
    // Too large for the cache: streamed from the file, in large reads, as the client takes it.
    const file = createReadStream(blobs.pathOf(blobId), { ...range, highWaterMark: READ_BYTES });
    // Opened before the pipe, so a missing blob is an answer (naming no server path), not a cut connection.
    file.once('error', (err: NodeJS.ErrnoException) => next(missingContent(err)));
    file.once('open', () => {
      file.removeAllListeners('error');
      pipeline(file, res).catch((err: unknown) => (res.headersSent ? res.destroy() : next(err)));
    });
  };
  const bytes = blobs.bytesOf(blobId, size);
  if (Buffer.isBuffer(bytes)) return write(bytes);
  bytes.then(write, () => write(undefined)).catch(next);
}

/**
 * Writes the views synthetic content is made of as a buffer from memory is written: a batch of them at a
 * time into the corked response, so the socket takes each batch in one writev rather than a write a view,
 * then the next batch once it drains. The views share one small block, so a batch costs no memory.
 */
function sendViews(res: Response, views: Iterator<Buffer>): void {
  const pump = (): void => {
    if (res.destroyed) return;
    res.cork();
    let queued = 0;
    let ready = true;
    for (let next = views.next(); ; next = views.next()) {
      if (next.done) {
        res.end();
        res.uncork();
        return;
      }
      ready = res.write(next.value);
      queued += next.value.length;
      if (queued >= VIEW_BATCH_BYTES) break;
    }
    res.uncork();
    if (ready) setImmediate(pump);
    else res.once('drain', pump);
  };
  pump();
}

/** A blob file that cannot be opened: the node is there, its stored bytes are not (a damaged --data folder). */
function missingContent(err: NodeJS.ErrnoException): HttpError {
  const why = err.code === 'ENOENT' ? 'is missing' : `cannot be read (${err.code ?? 'error'})`;
  return new HttpError(500, `internal error: the stored content of this file ${why} on the server`);
}

/** If-Match / If-Unmodified-Since against the headers already set (RFC 9110 13.1.1, 13.1.4). */
function preconditionFailed(res: Response): boolean {
  const { 'if-match': match, 'if-unmodified-since': unmodifiedSince } = res.req.headers;
  if (match !== undefined) {
    const etag = String(res.getHeader('ETag'));
    return match.trim() !== '*' && !match.split(',').some((tag) => stripWeak(tag.trim()) === etag);
  }
  if (unmodifiedSince !== undefined) {
    const since = Date.parse(unmodifiedSince);
    const modified = Date.parse(String(res.getHeader('Last-Modified')));
    return Number.isNaN(since) || modified > since;
  }
  return false;
}

/** If-Range: the Range applies only while the validator it names is current (RFC 9110 13.1.5). */
function rangeIsFresh(res: Response): boolean {
  const given = res.req.headers['if-range'];
  if (given === undefined) return true;
  const ifRange = String(given);
  if (ifRange.includes('"')) return ifRange.trim() === res.getHeader('ETag');
  const modified = Date.parse(String(res.getHeader('Last-Modified')));
  return !Number.isNaN(modified) && modified <= Date.parse(ifRange);
}

/**
 * RFC 9110 14.1.3: a suffix range longer than the representation selects all of it. range-parser
 * (1.3.0, the newest, used by req.range) answers 416 for it, so "bytes=-100" on 59 bytes becomes "bytes=0-".
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
