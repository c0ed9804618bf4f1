import busboy from 'busboy';
import multer from 'multer';
import { describe, expect, it } from 'vitest';
import { DomainError, type DomainErrorCode } from '../../../src/domain/errors.js';
import { toHttpError } from '../../../src/http/error-middleware.js';
import { HttpError, methodNotAllowed } from '../../../src/http/errors.js';
import { StorageError } from '../../../src/storage/persistence.js';
import { EntityError } from '../../../src/xml/entity-text.js';

/** The error busboy itself throws for a multipart Content-Type without a boundary. */
function busboyError(): unknown {
  try {
    busboy({ headers: { 'content-type': 'multipart/form-data' } });
  } catch (err) {
    return err;
  }
  throw new Error('busboy accepted a multipart type without a boundary');
}

/** An error as body-parser makes them: an Error with an HTTP status and a type. */
const bodyParserError = (status: number, type: string, message: string): Error =>
  Object.assign(new Error(message), { status, type });

const errno = (code: string): Error => Object.assign(new Error(`${code}: write failed`), { code });

interface Mapped {
  status: number;
  message?: string | RegExp;
  close?: boolean;
  /** Whether the server logs it (unexpected errors and storage failures). */
  logged: boolean;
}

describe('error mapping: anything thrown becomes one HTTP answer', () => {
  it.each<[string, () => unknown, Mapped]>([
    [
      'an HttpError passes through',
      () => new HttpError(418, 'teapot'),
      { status: 418, message: 'teapot', logged: false },
    ],
    [
      'an HttpError keeps its headers',
      () => methodNotAllowed(['GET', 'HEAD']),
      { status: 405, message: /allowed: GET, HEAD/, logged: false },
    ],
    ...(
      [
        ['not-found', 404],
        ['invalid', 400],
        ['duplicate', 422],
        ['conflict', 409],
        ['locked', 423],
        ['full', 507],
      ] as Array<[DomainErrorCode, number]>
    ).map(([code, status]): [string, () => unknown, Mapped] => [
      `a domain error "${code}"`,
      () => new DomainError(code, `${code} happened`),
      { status, message: `${code} happened`, logged: false },
    ]),
    [
      'a storage error "io": nothing was kept',
      () => new StorageError('io', 'EIO'),
      { status: 500, message: 'internal error: the change could not be stored', logged: true },
    ],
    [
      'a storage error "full"',
      () => new StorageError('full', 'no space'),
      { status: 507, message: "insufficient storage: the server's disk is full", logged: true },
    ],
    ['a raw ENOSPC from a stream', () => errno('ENOSPC'), { status: 507, logged: true }],
    ['a raw EDQUOT (quota exhausted)', () => errno('EDQUOT'), { status: 507, logged: true }],
    ['a raw EIO is not a full disk', () => errno('EIO'), { status: 500, message: 'internal error', logged: true }],
    [
      'a binary body under an XML type: 500 and the connection closed (as observed)',
      () => new EntityError('binary', 'the entity is not text'),
      { status: 500, message: 'the entity is not text', close: true, logged: false },
    ],
    ['an entity in an unknown charset', () => new EntityError('encoding', 'charset x'), { status: 415, logged: false }],
    ['malformed XML', () => new EntityError('malformed', 'unclosed tag'), { status: 400, logged: false }],
    ['an invalid entity', () => new EntityError('invalid', 'no name'), { status: 400, logged: false }],
    [
      'an upload over the size limit (multer)',
      () => new multer.MulterError('LIMIT_FILE_SIZE', 'file'),
      { status: 413, message: /^multipart: /, logged: false },
    ],
    [
      'any other multer refusal',
      () => new multer.MulterError('LIMIT_UNEXPECTED_FILE', 'photo'),
      { status: 400, message: /^multipart: /, logged: false },
    ],
    [
      'a body too large (body-parser)',
      () => bodyParserError(413, 'entity.too.large', 'request entity too large'),
      { status: 413, message: 'request body too large', logged: false },
    ],
    [
      'an aborted request body (body-parser)',
      () => bodyParserError(400, 'request.aborted', 'request aborted'),
      { status: 400, message: 'request aborted', logged: false },
    ],
    [
      'a 5xx status on a foreign error is not trusted',
      () => bodyParserError(503, 'x', 'upstream said so'),
      { status: 500, message: 'internal error', logged: true },
    ],
    [
      'a status below 400 on a foreign error is not trusted',
      () => bodyParserError(302, 'x', 'moved'),
      { status: 500, message: 'internal error', logged: true },
    ],
    [
      'a multipart type without a boundary (busboy)',
      busboyError,
      { status: 400, message: /^multipart: /, logged: false },
    ],
    [
      'a TypeError is a bug: 500 without its message',
      () => new TypeError("Cannot read properties of undefined (reading 'x')"),
      { status: 500, message: 'internal error', logged: true },
    ],
    ['a thrown string', () => 'oops', { status: 500, message: 'internal error', logged: true }],
    ['a thrown undefined', () => undefined, { status: 500, message: 'internal error', logged: true }],
    ['a thrown null', () => null, { status: 500, message: 'internal error', logged: true }],
  ])('%s', (_what, make, mapped) => {
    const log: string[] = [];
    const error = toHttpError(make(), (line) => log.push(line));
    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(mapped.status);
    if (typeof mapped.message === 'string') expect(error.message).toBe(mapped.message);
    else if (mapped.message) expect(error.message).toMatch(mapped.message);
    expect(error.closeConnection).toBe(mapped.close ?? false);
    expect(log.length > 0).toBe(mapped.logged);
  });

  it('an HttpError is the same object, headers and all', () => {
    const original = methodNotAllowed(['GET']);
    expect(toHttpError(original, () => {})).toBe(original);
    expect(original.headers).toEqual({ Allow: 'GET' });
  });
});
