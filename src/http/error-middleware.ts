import type { ErrorRequestHandler, Response } from 'express';
import multer from 'multer';
import { DomainError, type DomainErrorCode } from '../domain/errors.js';
import { StorageError } from '../storage/persistence.js';
import { isDiskFull } from '../storage/storage-errors.js';
import { EntityError } from '../xml/requests.js';
import { closeAfterResponse } from './close-connection.js';
import { HttpError } from './errors.js';

const DOMAIN_STATUS: Record<DomainErrorCode, number> = {
  'not-found': 404,
  invalid: 400,
  duplicate: 422,
  conflict: 409,
  locked: 423,
  full: 507,
};

/** Turns anything thrown into one HttpError; unknown errors are logged and become a plain 500. */
export function toHttpError(err: unknown, log: (line: string) => void): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof DomainError) return new HttpError(DOMAIN_STATUS[err.code], err.message);
  // Nothing of the change was kept; a full disk is the protocol's 507 (RFC 4918), anything else a 500.
  // A raw ENOSPC counts too: an upload's stream may report the failed blob write before the store does.
  if (err instanceof StorageError || isDiskFull(err)) {
    log(`storage error: ${(err as Error).message}`);
    return err instanceof StorageError && err.kind === 'io'
      ? new HttpError(500, 'internal error: the change could not be stored')
      : new HttpError(507, "insufficient storage: the server's disk is full");
  }
  if (err instanceof EntityError) {
    // As observed: a binary body under an XML media type got 500 and a closed connection.
    if (err.kind === 'binary') return new HttpError(500, err.message, { close: true });
    return new HttpError(err.kind === 'encoding' ? 415 : 400, err.message);
  }
  if (err instanceof multer.MulterError) {
    return new HttpError(err.code === 'LIMIT_FILE_SIZE' ? 413 : 400, `multipart: ${err.message}`);
  }
  // `throw null` and `throw undefined` reach here too: read their fields without dereferencing them.
  const status = (err as { status?: unknown } | null | undefined)?.status;
  const type = (err as { type?: unknown } | null | undefined)?.type;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // body-parser and busboy errors: too large, aborted, malformed multipart
    const message = type === 'entity.too.large' ? 'request body too large' : (err as Error).message;
    return new HttpError(status, message);
  }
  if (err instanceof Error && /Multipart|Unexpected end of form|boundary/i.test(err.message)) {
    return new HttpError(400, `multipart: ${err.message}`);
  }
  log(`internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return new HttpError(500, 'internal error');
}

export function sendHttpError(res: Response, error: HttpError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(error.status);
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'text/plain; charset=UTF-8');
  if (error.closeConnection) closeAfterResponse(res);
  // A Buffer keeps express from rewriting the charset to lower case.
  res.send(Buffer.from(`${error.status} ${error.message}\n`, 'utf8'));
}

export function errorMiddleware(log: (line: string) => void): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    sendHttpError(res, toHttpError(err, log));
  };
}
