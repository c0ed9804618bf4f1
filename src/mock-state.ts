import type { Clock } from './clock/mock-clock.js';
import { CloudStore } from './domain/cloud-store.js';
import type { StateBuilder } from './domain/state-builder.js';
import { BlobStore } from './storage/blob-store.js';
import type { StatePersistence } from './storage/persistence.js';
import type { StateData } from './domain/model.js';
import { openStatePersistence } from './storage/state-log.js';

/**
 * Who gets a root container, and what a fresh user's tree holds (nothing when `tree` is absent); the
 * plan is decided by starting-state.ts, this module carries it out.
 */
export interface SeedPlan {
  users: string[];
  /** A user's root id when it is given (a recorded one); a new id otherwise. */
  rootOf?: (user: string) => string | undefined;
  /** A promise when the tree is built in slices (a generated account), so the mock answers meanwhile. */
  tree?: (state: StateBuilder, user: string) => void | Promise<void>;
}

/** The fields of ResolvedOptions the store reads; named here so this module does not import options.ts (which imports scenarios/, which imports this). */
export interface StoreOptions {
  data: string | undefined;
  log: (line: string) => void;
  compactAfterBytes: number | undefined;
  /** Values a notification queue keeps unread (default: the domain's). */
  queueLimit?: number | undefined;
  /** The content cache's bound; undefined: storage/store-cache.ts's default. */
  contentCacheMiB?: number | undefined;
  /** The time entities and locks are stamped with (default: the host's). */
  clock?: Clock | undefined;
  /** Told how far the `data` state file has been read (bytes of its size), a MiB at a time and at its end. */
  onRead?: ((done: number, total: number) => void) | undefined;
}

/**
 * Opens the store for the options: the state (memory, or the `--data` snapshot and its log) plus
 * blobs beside it, orphans dropped; `seeded` says whether the state was new (built from the plan) or kept
 * (--data). `wrap` lets a test put a fault switch around the durable layer.
 */
export async function openStore(
  options: StoreOptions,
  plan: SeedPlan,
  wrap: (inner: StatePersistence) => StatePersistence = (inner) => inner,
): Promise<{ store: CloudStore; seeded: boolean }> {
  let store: CloudStore | undefined;
  // Compaction snapshots what the store holds; it is only asked once the store exists.
  const snapshot = (): StateData => {
    if (!store) throw new Error('the store is not open yet');
    return store.snapshot();
  };
  const persistence = wrap(
    openStatePersistence(options.data, {
      snapshot,
      log: options.log,
      compactAfterBytes: options.compactAfterBytes,
      onRead: options.onRead,
    }),
  );
  // The state is read (and refused) before its blob folder is made: a refused file leaves nothing beside it.
  const { state, notes } = await persistence.load();
  let blobs: BlobStore | undefined;
  try {
    // Memory mode: no folder until a blob needs a file (most mocks of a test suite store only small ones).
    blobs = await BlobStore.open(options.data ? `${options.data}.blobs` : undefined, {
      folder: 'when-needed',
      cacheBytes: options.contentCacheMiB === undefined ? undefined : Math.floor(options.contentCacheMiB * 1024 * 1024),
    });
    for (const note of notes) options.log(note);
    store = new CloudStore(state, persistence, blobs, options.clock);
    if (options.queueLimit !== undefined) store.notificationQueues.limit = options.queueLimit;
    const dropped = await blobs.sweep(store.tree.referencedBlobs());
    if (dropped > 0) options.log(`dropped ${dropped} orphaned blob file(s) from ${blobs.dir}`);
    const seeded = store.tree.users().length === 0;
    if (seeded) await store.replaceState(await buildSeed(store, plan));
    else for (const user of plan.users) await store.ensureUser(user);
    return { store, seeded };
  } catch (err) {
    await persistence.close().catch(() => undefined);
    await blobs?.close();
    throw err;
  }
}

/**
 * The planned state built aside (every planned user with its tree), blobs written; nothing in the
 * store changes. Throws (a bad seed name, a bad tag) with nothing left behind.
 */
export async function buildSeed(store: CloudStore, plan: SeedPlan): Promise<StateBuilder> {
  const state = store.builder();
  try {
    for (const user of plan.users) {
      state.addUser(user, plan.rootOf?.(user));
      await plan.tree?.(state, user);
    }
    await state.writeBlobs();
    return state;
  } catch (err) {
    await state.discard();
    throw err;
  }
}
