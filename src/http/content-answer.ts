import { createReadStream, type ReadStream } from 'node:fs';
import type { Request } from 'express';
import type { BlobStore, NodeRecord } from '../domain/model.js';
import type { Answer } from './answer.js';
import { HttpError } from './errors.js';
import { notModified, stripWeak } from './not-modified.js';

/** Read size for a blob streamed from its file: 1 MiB reads serve a large file at memory speed (64 KiB: about 0.4x). */
const READ_BYTES = 1024 * 1024;

/** The strong ETag of a file's content, shared by REST and WebDAV so both views agree. */
export function contentEtag(node: NodeRecord): string {
  return `"${node.id}-${node.version}"`;
}

/**
 * A file's bytes with ETag, Last-Modified and Accept-Ranges, for GET and HEAD: If-Match and
 * If-Unmodified-Since answer 412, If-None-Match and If-Modified-Since 304 (RFC 9110 13.2.2's order),
 * one Range 206 (If-Range honoured) and an unsatisfiable one 416; several ranges get the whole
 * file, as from send. The bytes come from memory when the store has them (a blob memory mode holds,
 * or one in the content cache, read into it on a miss) and are streamed from the blob's file otherwise;
 * synthetic content (storage/synthetic-content.ts) is made as it streams, range or whole.
 */
export function contentAnswer(req: Request, node: NodeRecord, blobs: BlobStore): Answer | Promise<Answer> {
  const size = node.bytes;
  const etag = contentEtag(node);
  const lastModified = new Date(node.modified * 1000).toUTCString();
  const validators = { ETag: etag, 'Last-Modified': lastModified, 'Accept-Ranges': 'bytes' };
  if (preconditionFailed(req, etag, lastModified))
    throw new HttpError(412, 'Precondition Failed', { headers: validators });
  if (notModified(req, etag, lastModified)) return { status: 304, headers: validators };
  let range: { start: number; end: number } | undefined;
  const header = req.headers.range;
  if (header !== undefined && /^ *bytes=/.test(header) && rangeIsFresh(req, etag, lastModified)) {
    req.headers.range = clampSuffixRanges(header, size);
    const ranges = req.range(size, { combine: true });
    if (ranges === -1) {
      throw new HttpError(416, 'Range Not Satisfiable', {
        headers: { ...validators, 'Content-Range': `bytes */${size}` },
      });
    }
    if (ranges !== -2 && ranges !== undefined && ranges.length === 1) range = ranges[0]!;
  }
  const headers = {
    ...validators,
    'Content-Type': node.mimeType || 'application/octet-stream',
    'Content-Length': range ? range.end - range.start + 1 : size,
    ...(range ? { 'Content-Range': `bytes ${range.start}-${range.end}/${size}` } : {}),
  };
  const status = range ? 206 : 200;
  if (req.method === 'HEAD' || !node.blobId) return { status, headers };
  const blobId = node.blobId;
  // Synthetic content: made as the client takes it, as views of one small block (no copy, no cache).
  const views = blobs.syntheticChunks(blobId, range);
  if (views) return { status, headers, body: { views } };
  const answer = (bytes: Buffer | undefined): Answer | Promise<Answer> => {
    if (bytes) return { status, headers, body: range ? bytes.subarray(range.start, range.end + 1) : bytes };
    // Too large for the cache: streamed from the file, in large reads, as the client takes it.
    const file = createReadStream(blobs.pathOf(blobId), { ...range, highWaterMark: READ_BYTES });
    return opened(file).then(() => ({ status, headers, body: { stream: file } }));
  };
  const bytes = blobs.bytesOf(blobId, size);
  return Buffer.isBuffer(bytes) ? answer(bytes) : bytes.then(answer, () => answer(undefined));
}

/** Opened before the answer starts, so a missing blob is an answer (naming no server path), not a cut connection. */
function opened(file: ReadStream): Promise<void> {
  return new Promise((resolve, reject) => {
    file.once('error', (err: NodeJS.ErrnoException) => reject(missingContent(err)));
    file.once('open', () => {
      file.removeAllListeners('error');
      resolve();
    });
  });
}

/** A blob file that cannot be opened: the node is there, its stored bytes are not (a damaged --data folder). */
function missingContent(err: NodeJS.ErrnoException): HttpError {
  const why = err.code === 'ENOENT' ? 'is missing' : `cannot be read (${err.code ?? 'error'})`;
  return new HttpError(500, `internal error: the stored content of this file ${why} on the server`);
}

/** If-Match / If-Unmodified-Since (RFC 9110 13.1.1, 13.1.4). */
function preconditionFailed(req: Request, etag: string, lastModified: string): boolean {
  const { 'if-match': match, 'if-unmodified-since': unmodifiedSince } = req.headers;
  if (match !== undefined) {
    return match.trim() !== '*' && !match.split(',').some((tag) => stripWeak(tag.trim()) === etag);
  }
  if (unmodifiedSince !== undefined) {
    const since = Date.parse(unmodifiedSince);
    return Number.isNaN(since) || Date.parse(lastModified) > since;
  }
  return false;
}

/** If-Range: the Range applies only while the validator it names is current (RFC 9110 13.1.5). */
function rangeIsFresh(req: Request, etag: string, lastModified: string): boolean {
  const given = req.headers['if-range'];
  if (given === undefined) return true;
  const ifRange = String(given);
  if (ifRange.includes('"')) return ifRange.trim() === etag;
  const modified = Date.parse(lastModified);
  return !Number.isNaN(modified) && modified <= Date.parse(ifRange);
}

/**
 * RFC 9110 14.1.3: a suffix range longer than the representation selects all of it. range-parser
 * (1.3.0, the newest, used by req.range) answers 416 for it, so "bytes=-100" on 59 bytes becomes "bytes=0-".
 * An empty file keeps its 416: no suffix of it is satisfiable.
 */
function clampSuffixRanges(header: string, size: number): string {
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
