import { promisify } from 'node:util';
import { brotliCompress, brotliDecompress, deflate, gunzip, gzip, inflate, inflateRaw } from 'node:zlib';

/** The Content-Encodings the recorder can open to rewrite links and redact secrets. */
export type ContentCoding = 'identity' | 'gzip' | 'deflate' | 'br';

/** The coding a Content-Encoding header names; undefined for one we cannot decode (or a chain of several). */
export function contentCodingOf(header: string | string[] | undefined): ContentCoding | undefined {
  const value = (Array.isArray(header) ? header.join(',') : (header ?? '')).trim().toLowerCase();
  if (value === '' || value === 'identity') return 'identity';
  if (value === 'gzip' || value === 'x-gzip') return 'gzip';
  if (value === 'deflate' || value === 'br') return value;
  return undefined;
}

const run = {
  gunzip: promisify(gunzip),
  inflate: promisify(inflate),
  inflateRaw: promisify(inflateRaw),
  brotliDecompress: promisify(brotliDecompress),
  gzip: promisify(gzip),
  deflate: promisify(deflate),
  brotliCompress: promisify(brotliCompress),
};

/** Decodes a body; more than `limit` decoded bytes (a compression bomb) is an error. */
export async function decodeBody(body: Buffer, coding: ContentCoding, limit: number): Promise<Buffer> {
  const options = { maxOutputLength: limit };
  switch (coding) {
    case 'identity':
      return body;
    case 'gzip':
      return run.gunzip(body, options);
    case 'br':
      return run.brotliDecompress(body, options);
    case 'deflate':
      // "deflate" is zlib-wrapped by the standard, raw by some servers.
      return run.inflate(body, options).catch(() => run.inflateRaw(body, options));
  }
}

export async function encodeBody(body: Buffer, coding: ContentCoding): Promise<Buffer> {
  switch (coding) {
    case 'identity':
      return body;
    case 'gzip':
      return run.gzip(body);
    case 'br':
      return run.brotliCompress(body);
    case 'deflate':
      return run.deflate(body);
  }
}
