import { createCipheriv, createHash } from 'node:crypto';
import { Readable } from 'node:stream';

/**
 * Synthetic content: a file of a generated account stores no bytes. Its blob id names where its bytes
 * come from instead, `syn:<seed>:<file id>:<version>:<size>`, and the bytes are derived on every read:
 * the AES-128-CTR keystream under a key hashed from (seed, file id, version). AES-CTR is a standard,
 * seekable generator (byte n is in counter block n/16, so a Range costs only its own length), runs on
 * the CPU's AES instructions through Node's OpenSSL, and gives the same bytes on every machine and
 * Node version. The id is immutable like any blob id, so a copy that shares it has the same bytes,
 * and a write replaces it with a stored blob as usual.
 */
export interface SyntheticContent {
  seed: number;
  fileId: string;
  version: number;
  size: number;
}

const PREFIX = 'syn:';
const SYNTHETIC_ID = /^syn:(\d{1,16}):([A-Za-z0-9_-]{1,64}):(\d{1,9}):(\d{1,16})$/;
/** The keystream is made in pieces of this size: larger ones cost more in allocation than they save in calls. */
const PIECE_BYTES = 64 * 1024;
const ZEROS = Buffer.alloc(PIECE_BYTES);

/**
 * Joined, not concatenated: a concatenation this long stays a tree of its pieces in V8 (a cons string),
 * and a generated account holds one of these per file.
 */
export function syntheticBlobId(content: SyntheticContent): string {
  return ['syn', content.seed, content.fileId, content.version, content.size].join(':');
}

export function isSyntheticBlobId(blobId: string): boolean {
  return blobId.startsWith(PREFIX);
}

/** The content a synthetic blob id names; undefined for a stored blob's id (or a malformed one). */
export function parseSyntheticBlobId(blobId: string): SyntheticContent | undefined {
  const match = SYNTHETIC_ID.exec(blobId);
  if (!match) return undefined;
  const [seed, fileId, version, size] = [Number(match[1]), match[2]!, Number(match[3]), Number(match[4])];
  if (!Number.isSafeInteger(seed) || !Number.isSafeInteger(size)) return undefined;
  return { seed, fileId, version, size };
}

/** A keystream positioned at byte `start` of the content. */
function keystreamAt(content: SyntheticContent, start: number): (length: number) => Buffer {
  const key = createHash('sha256')
    .update(`csp-mock synthetic content 1\0${content.seed}\0${content.fileId}\0${content.version}`)
    .digest()
    .subarray(0, 16);
  const counter = Buffer.alloc(16);
  counter.writeBigUInt64BE(BigInt(Math.floor(start / 16)), 8);
  const cipher = createCipheriv('aes-128-ctr', key, counter);
  const skip = start % 16;
  if (skip > 0) cipher.update(ZEROS.subarray(0, skip));
  return (length) => {
    if (length <= PIECE_BYTES) return cipher.update(ZEROS.subarray(0, length));
    const pieces: Buffer[] = [];
    for (let left = length; left > 0; left -= PIECE_BYTES)
      pieces.push(cipher.update(ZEROS.subarray(0, Math.min(left, PIECE_BYTES))));
    return Buffer.concat(pieces, length);
  };
}

/** Bytes `start` to `end` (inclusive) of the content, clamped to its size. */
export function syntheticBytes(content: SyntheticContent, start = 0, end = content.size - 1): Buffer {
  const last = Math.min(end, content.size - 1);
  if (last < start) return Buffer.alloc(0);
  return keystreamAt(content, start)(last - start + 1);
}

/** The content (or the inclusive `range` of it) as a stream made piece by piece as the reader takes it. */
export function syntheticStream(content: SyntheticContent, range?: { start: number; end: number }): Readable {
  const start = range?.start ?? 0;
  const end = Math.min(range?.end ?? content.size - 1, content.size - 1);
  const next = keystreamAt(content, start);
  let left = Math.max(0, end - start + 1);
  return new Readable({
    highWaterMark: PIECE_BYTES,
    read() {
      if (left === 0) return void this.push(null);
      const length = Math.min(left, PIECE_BYTES);
      left -= length;
      this.push(next(length));
    },
  });
}
