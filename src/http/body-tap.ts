import type { Request } from 'express';

/** Keeps the first `limit` bytes of a stream of chunks and counts the rest. */
export class CappedBytes {
  readonly #limit: number;
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  total = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  add(chunk: unknown, encoding?: unknown): void {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    // Only the kept part is copied: a tapped 8 MiB answer must not cost an 8 MiB copy per request.
    const view =
      typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : Buffer.from((chunk as Uint8Array).buffer, (chunk as Uint8Array).byteOffset, (chunk as Uint8Array).byteLength);
    this.total += view.length;
    if (this.#kept >= this.#limit) return;
    const part = Buffer.from(view.subarray(0, this.#limit - this.#kept));
    this.#chunks.push(part);
    this.#kept += part.length;
  }

  bytes(): Buffer {
    return Buffer.concat(this.#chunks);
  }
}

/**
 * Watches a request's body as its consumer reads it, without becoming a consumer: a 'data' listener
 * would switch the stream to flowing mode and lose chunks a late reader (multer) needs.
 */
export function tapRequest(req: Request, into: CappedBytes): void {
  const emit = req.emit.bind(req) as (event: string | symbol, ...args: unknown[]) => boolean;
  (req as { emit: typeof emit }).emit = (event, ...args) => {
    if (event === 'data') into.add(args[0]);
    return emit(event, ...args);
  };
}
