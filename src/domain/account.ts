import { DomainError, notFound } from './errors.js';
import type { StoreCore } from './store-core.js';

/** Inferred: 2 GB per account, below 2^31 since one client reads the storage figures as 32-bit integers. */
export const STORAGE_ALLOCATED = 2_000_000_000;

/** The bytes allocated to `user`'s account: a quota set for it, else the default. */
export function storageAllocated(core: StoreCore, user: string): number {
  return core.tree.user(user)?.storageAllocated ?? STORAGE_ALLOCATED;
}

/** Sets the account's allocation (one transaction); from then on writes past it are refused. */
export function setStorageAllocated(core: StoreCore, user: string, bytes: number): Promise<void> {
  return core.transact(() => {
    const record = core.tree.user(user);
    if (!record) throw notFound('user');
    return { change: { users: [{ login: user, user: { ...record, storageAllocated: bytes } }] }, result: undefined };
  });
}

/**
 * Refuses a write that would leave the account holding more than a quota set for it (`grows` bytes
 * more than now). Accounts without a set quota are not checked: the default figure is only reported.
 */
export function checkQuota(core: StoreCore, user: string, grows: number): void {
  const allocated = core.tree.user(user)?.storageAllocated;
  if (allocated === undefined || grows <= 0) return;
  const root = core.tree.user(user)!.rootId;
  const used = core.tree.subtreeBytes(root);
  if (used + grows > allocated)
    throw new DomainError('full', `the account's storage quota is used up (${used} of ${allocated} bytes)`);
}
