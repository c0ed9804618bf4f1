import { HttpError } from './errors.js';

/** Reads a whole body (a request or an upstream answer) into memory; past `limit` bytes it is a 413. */
export async function readBody(
  stream: AsyncIterable<Buffer | string>,
  limit = Number.POSITIVE_INFINITY,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size > limit) throw new HttpError(413, `body larger than ${limit} bytes`);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}
