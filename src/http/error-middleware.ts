import type { ErrorRequestHandler } from 'express';
import { STATUS_CODES } from 'node:http';
import multer from 'multer';
import { DomainError, storageFailure, type DomainErrorCode } from '../domain/errors.js';
import { EntityError } from '../xml/requests.js';
import { closeAfterResponse } from './close-connection.js';
import { HttpError } from './errors.js';
import { plainAnswer, sendAnswer } from './answer.js';

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
  const failure = storageFailure(err);
  if (failure) {
    log(`storage error: ${failure.message}`);
    return failure.kind === 'io'
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
    // http-errors from body-parser and raw-body carry their status: too large, aborted
    if (type === 'entity.too.large') return new HttpError(status, 'request body too large');
    // http-errors marks a message not meant for clients: send's name the server's file path.
    if ((err as { expose?: unknown }).expose === false)
      return new HttpError(status, (STATUS_CODES[status] ?? 'error').toLowerCase());
    return new HttpError(status, (err as Error).message);
  }
  // busboy's own errors carry no code or status, only a message; multipart-upload.ts turns them into 400s
  // where it runs busboy, and this is the fallback for one that arrives unconverted.
  if (err instanceof Error && /Multipart|Unexpected end of form|boundary/i.test(err.message)) {
    return new HttpError(400, `multipart: ${err.message}`);
  }
  log(`internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return new HttpError(500, 'internal error');
}

export function errorMiddleware(log: (line: string) => void): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    const error = toHttpError(err, log);
    if (error.closeConnection && !res.headersSent) closeAfterResponse(res);
    return sendAnswer(res, plainAnswer(error.status, error.message, error.headers));
  };
}
