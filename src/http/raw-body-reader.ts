import express, { type RequestHandler } from 'express';

/**
 * express.raw for any media type, made on the first request that reads a body: making it loads
 * body-parser with raw-body, iconv-lite and zlib, which a start that reads no body need not load.
 */
export function rawBodyReader(limit: string): RequestHandler {
  let read: RequestHandler | undefined;
  return (req, res, next) => {
    read ??= express.raw({ type: () => true, limit });
    read(req, res, next);
  };
}
