import type { Response } from 'express';

/** The write/end shapes of a response, for the faults that stand between a handler and the socket. */
export type WriteCallback = (err?: Error | null) => void;
export type Chunk = string | Buffer | Uint8Array;
export interface WritableBody {
  write(chunk: Chunk, encoding?: BufferEncoding | WriteCallback, cb?: WriteCallback): boolean;
  end(chunk?: Chunk | WriteCallback, encoding?: BufferEncoding | WriteCallback, cb?: WriteCallback): unknown;
}

export function writableBody(res: Response): WritableBody {
  return res as unknown as WritableBody;
}

export function toBuffer(chunk: Chunk, encoding: unknown): Buffer {
  if (typeof chunk === 'string')
    return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

export function callbackOf(...args: unknown[]): WriteCallback | undefined {
  return args.find((a): a is WriteCallback => typeof a === 'function');
}
