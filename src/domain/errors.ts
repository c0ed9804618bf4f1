import { StorageError } from '../storage/persistence.js';
import { isDiskFull } from '../storage/storage-errors.js';

/** What went wrong, in the service's terms; the HTTP layer maps each code to a status. */
export type DomainErrorCode =
  | 'not-found' // unknown or recycled id, or a path that names nothing
  | 'invalid' // a name or field the service does not accept
  | 'duplicate' // the name is taken in that container
  | 'conflict' // the operation cannot apply here (move into itself, no parent, wrong kind)
  | 'locked' // a WebDAV lock forbids the write
  | 'full'; // a bounded table (locks) has no room

/**
 * For 'locked': the lock that refuses the write (its root node), and why: the write did not submit its
 * token, or a new lock conflicts with it. WebDAV names that resource in its error body (RFC 4918 16).
 */
export interface LockedBy {
  rootId: string;
  reason: 'token-not-submitted' | 'conflicting-lock';
}

export class DomainError extends Error {
  readonly code: DomainErrorCode;
  /** Set on some 'locked' errors; optional, so any 'locked' error still maps to 423. */
  readonly lockedBy?: LockedBy;
  constructor(code: DomainErrorCode, message: string, lockedBy?: LockedBy) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    if (lockedBy) this.lockedBy = lockedBy;
  }
}

/** The one not-found error (404): "<what> not found", or `message` as given (a URL that names nothing). */
export const notFound = (what: string, message = `${what} not found`): DomainError =>
  new DomainError('not-found', message);
export const invalid = (message: string): DomainError => new DomainError('invalid', message);
export const duplicateName = (name: string): DomainError =>
  new DomainError('duplicate', `an object named "${name}" already exists in this container`);
export const conflict = (message: string): DomainError => new DomainError('conflict', message);

/**
 * Why the store could not keep a change, when that is the reason: 'full' for a full disk or quota
 * (a raw ENOSPC too: an upload's stream may report the failed blob write before the store types it),
 * 'io' for any other failure of the durable layer; undefined for anything else.
 */
export function storageFailure(err: unknown): { kind: 'full' | 'io'; message: string } | undefined {
  if (err instanceof StorageError) return { kind: err.kind, message: err.message };
  if (isDiskFull(err)) return { kind: 'full', message: (err as Error).message };
  return undefined;
}
