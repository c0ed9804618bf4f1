/** What went wrong, in the service's terms; the HTTP layer maps each code to a status. */
export type DomainErrorCode =
  | 'not-found' // unknown or recycled id, or a path that names nothing
  | 'invalid' // a name or field the service does not accept
  | 'duplicate' // the name is taken in that container
  | 'conflict' // the operation cannot apply here (move into itself, no parent, wrong kind)
  | 'locked' // a WebDAV lock forbids the write
  | 'full'; // a bounded table (locks) has no room

export class DomainError extends Error {
  readonly code: DomainErrorCode;
  constructor(code: DomainErrorCode, message: string) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
  }
}

export const notFound = (what: string): DomainError => new DomainError('not-found', `${what} not found`);
export const invalid = (message: string): DomainError => new DomainError('invalid', message);
export const duplicateName = (name: string): DomainError =>
  new DomainError('duplicate', `an object named "${name}" already exists in this container`);
export const conflict = (message: string): DomainError => new DomainError('conflict', message);
