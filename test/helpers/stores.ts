import { seedPlanOf } from '../../src/scenarios/seed-tree.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { CloudStore } from '../../src/domain/cloud-store.js';
import { buildSeed, openStore, type SeedPlan } from '../../src/mock-state.js';
import { resolveOptions, type MockOptions } from '../../src/options.js';
import { StorageError, type ChangeSet, type StatePersistence } from '../../src/storage/persistence.js';
import type { StateData } from '../../src/domain/model.js';

export type StoreKind = 'memory' | 'file';
export const STORE_KINDS: StoreKind[] = ['memory', 'file'];

/**
 * Set `failing` to make the durable layer refuse every commit and replace, as a full disk would.
 * `groups` counts what reached the durable layer: the size of each commit group (one fsync each);
 * while `hold` is set, a group waits for it before it is written (a slow fsync).
 */
export interface FaultSwitch {
  failing: 'full' | 'io' | undefined;
  groups: number[];
  hold?: Promise<void>;
}

/** A store of one kind over a fresh temp directory; `reopen` loads the same files again (file kind). */
export interface TestStore {
  store: CloudStore;
  /** The --data file (file kind only). */
  dataFile: string | undefined;
  faults: FaultSwitch;
  reopen(): Promise<CloudStore>;
  dispose(): Promise<void>;
}

export async function openTestStore(kind: StoreKind, extra: MockOptions = {}): Promise<TestStore> {
  const dir = await mkdtemp(join(tmpdir(), 'csp-mock-store-'));
  const dataFile = kind === 'file' ? join(dir, 'state.json') : undefined;
  const faults: FaultSwitch = { failing: undefined, groups: [] };
  const options = () => resolveOptions({ users: { alice: 'a', bob: 'b' }, seed: 'empty', ...extra, data: dataFile });
  const open = async (): Promise<CloudStore> => {
    const resolved = options();
    return (await openStore(resolved, seedPlanOf(undefined, resolved), (inner) => faulty(inner, faults))).store;
  };
  const opened: CloudStore[] = [await open()];
  return {
    get store() {
      return opened[opened.length - 1]!;
    },
    dataFile,
    faults,
    async reopen() {
      // A restart: one process per state file, so the running store closes first.
      await opened[opened.length - 1]!.close();
      const next = await open();
      opened.push(next);
      return next;
    },
    async dispose() {
      for (const s of opened) await s.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The real durable layer, refusing writes while the switch says so (nothing of a refused write lands). */
function faulty(inner: StatePersistence, faults: FaultSwitch): StatePersistence {
  const refuse = (): void => {
    if (faults.failing) throw new StorageError(faults.failing, `injected ${faults.failing} failure`);
  };
  return {
    file: inner.file,
    load: () => inner.load(),
    commit: async (group: readonly ChangeSet[]) => {
      faults.groups.push(group.length);
      if (faults.hold) await faults.hold;
      refuse();
      await inner.commit(group);
    },
    replace: async (state: StateData) => {
      refuse();
      await inner.replace(state);
    },
    close: () => inner.close(),
  };
}

/** Reads a whole blob (small test files only). */
export async function contentOf(store: CloudStore, blobId: string | null): Promise<Buffer> {
  if (!blobId) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  for await (const chunk of store.blobs.read(blobId)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A readable that yields `parts` one at a time with a pause between, like a slow upload. */
export function slowStream(parts: Buffer[], pauseMs = 5): Readable {
  return Readable.from(
    (async function* () {
      for (const part of parts) {
        await new Promise((r) => setTimeout(r, pauseMs));
        yield part;
      }
    })(),
  );
}

/** The blobs a store holds: the names in its blob directory and, in memory mode, the small blobs it holds in memory. */
export async function blobFiles(store: CloudStore): Promise<string[]> {
  return (await store.blobs.stored()).sort();
}

/** Back to `plan`'s seed: built aside, then swapped in whole; a refused seed changes nothing. */
export async function resetStore(store: CloudStore, plan: SeedPlan): Promise<void> {
  const built = await buildSeed(store, plan);
  try {
    await store.replaceState(built);
  } catch (err) {
    await built.discard();
    throw err;
  }
}
