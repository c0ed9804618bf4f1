import { failpoint } from '../storage/failpoints.js';
import type { StateBuilder } from './state-builder.js';
import type { StoreCore } from './store-core.js';

/** Swaps the built state in for the whole state, atomically (once nothing staged is pending); the old blobs go after. */
export async function swapState(core: StoreCore, built: StateBuilder): Promise<void> {
  await core.serial(async () => {
    await core.drained();
    const old = core.tree.referencedBlobs();
    failpoint('switch-blobs-before-replace');
    await core.replace(built.state());
    await core.dropUnreferenced(old);
  });
}

/**
 * Replaces the trees of the users the builder holds (ids as built) in one transaction; every other
 * user keeps theirs. Replaced blobs are dropped after the commit.
 */
export async function swapUsers(core: StoreCore, built: StateBuilder): Promise<void> {
  const dropped: Array<string | null> = [];
  await core.transact(() => {
    const state = built.state();
    const removed: string[] = [];
    for (const login of Object.keys(state.users)) {
      for (const id of core.tree.idsOf(login)) {
        if (state.nodes[id]) continue;
        removed.push(id);
        dropped.push(core.tree.node(id)!.blobId);
      }
    }
    for (const node of Object.values(state.nodes)) dropped.push(core.tree.node(node.id)?.blobId ?? null);
    const users = Object.entries(state.users).map(([login, user]) => ({ login, user }));
    return { change: { users, nodes: Object.values(state.nodes), removed }, result: undefined };
  });
  await core.dropUnreferenced(dropped);
}
