import express, { type RequestHandler } from 'express';

/**
 * express.raw for any media type, made on the first request that reads a body: making it loads
 * body-parser with raw-body, iconv-lite and zlib, which a start need not pay for (issue 9, cold start).
 */
export function rawBodyReader(limit: string): RequestHandler {
  let read: RequestHandler | undefined;
  return (req, res, next) => {
    read ??= express.raw({ type: () => true, limit });
    read(req, res, next);
  };
}
