import { CloudStore } from './domain/cloud-store.js';
import type { ResolvedOptions } from './options.js';
import { BlobStore } from './storage/blob-store.js';
import { openMetadataDb } from './storage/metadata-store.js';

/** Who gets a root container, and what a fresh user's tree holds (nothing when `tree` is absent). */
export interface SeedPlan {
  users: string[];
  tree?: (store: CloudStore, user: string) => Promise<void>;
}

/** Opens the store for the options: lowdb (memory or file) plus blobs beside it, orphans dropped. */
export async function openStore(options: ResolvedOptions, plan: SeedPlan): Promise<CloudStore> {
  const db = await openMetadataDb(options.data);
  const blobs = await BlobStore.open(options.data ? `${options.data}.blobs` : undefined);
  const store = new CloudStore(db, blobs);
  const fresh = store.users().length === 0;
  const dropped = await blobs.sweep(store.tree.referencedBlobs());
  if (dropped > 0) options.log(`dropped ${dropped} orphaned blob file(s) from ${blobs.dir}`);
  await seedUsers(store, plan, fresh);
  return store;
}

/** Every planned user gets a root; a fresh state (or a reset) also gets the planned tree. */
export async function seedUsers(store: CloudStore, plan: SeedPlan, fresh: boolean): Promise<void> {
  for (const user of plan.users) {
    const known = store.users().includes(user);
    await store.ensureUser(user);
    if (!known && fresh && plan.tree) await plan.tree(store, user);
  }
}

/** Back to the seed: empty state, then the planned users and trees. */
export async function resetStore(store: CloudStore, plan: SeedPlan): Promise<void> {
  await store.clear();
  await seedUsers(store, plan, true);
}
