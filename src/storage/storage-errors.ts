import { StorageError } from './persistence.js';

const FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);

/** True for the errno codes of a full disk or an exhausted quota. */
export function isDiskFull(err: unknown): boolean {
  return FULL_CODES.has((err as NodeJS.ErrnoException | undefined)?.code ?? '');
}

/** A file-system failure as a StorageError ('full' for ENOSPC/EDQUOT, else 'io'); one already typed is kept. */
export function toStorageError(err: unknown, what: string): StorageError {
  if (err instanceof StorageError) return err;
  const detail = err instanceof Error ? err.message : String(err);
  return isDiskFull(err)
    ? new StorageError('full', `${what}: the disk is full (${detail})`, { cause: err })
    : new StorageError('io', `${what}: ${detail}`, { cause: err });
}

/** Whether a process with this id is alive (EPERM: alive, owned by someone else). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
