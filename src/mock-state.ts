import { CloudStore } from './domain/cloud-store.js';
import { seedDemoTree } from './demo/demo-tree.js';
import type { ResolvedOptions } from './options.js';
import { BlobStore } from './storage/blob-store.js';
import { openMetadataDb } from './storage/metadata-store.js';

/** Opens the store for the options: lowdb (memory or file) plus blobs beside it, orphans dropped. */
export async function openStore(options: ResolvedOptions): Promise<CloudStore> {
  const db = await openMetadataDb(options.data);
  const blobs = await BlobStore.open(options.data ? `${options.data}.blobs` : undefined);
  const store = new CloudStore(db, blobs);
  const fresh = store.users().length === 0;
  const dropped = await blobs.sweep(store.tree.referencedBlobs());
  if (dropped > 0) options.log(`dropped ${dropped} orphaned blob file(s) from ${blobs.dir}`);
  await seedUsers(store, options, fresh);
  return store;
}

/** Every configured user gets a root; a fresh state (or a reset) also gets the demo tree. */
export async function seedUsers(store: CloudStore, options: ResolvedOptions, fresh: boolean): Promise<void> {
  for (const user of options.users.keys()) {
    const known = store.users().includes(user);
    await store.ensureUser(user);
    if (!known && fresh && options.seed === 'demo') await seedDemoTree(store, user);
  }
}

/** Back to the seed: empty state, then users and (unless --empty) the demo tree. */
export async function resetStore(store: CloudStore, options: ResolvedOptions): Promise<void> {
  await store.clear();
  await seedUsers(store, options, true);
}
