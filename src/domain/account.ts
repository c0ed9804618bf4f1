/** Inferred: 2 GB per account, below 2^31 since one client reads the storage figures as 32-bit integers. */
export const STORAGE_ALLOCATED = 2_000_000_000;
