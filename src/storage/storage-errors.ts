import { readFileSync } from 'node:fs';
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

/** Whether a process with this id is alive (EPERM: alive, owned by someone else; a zombie is dead). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !isZombie(pid);
}

/** Linux: a killed process its parent has not reaped yet still answers kill(pid, 0). */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}
