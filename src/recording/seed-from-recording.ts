import type { CloudStore } from '../domain/cloud-store.js';
import type { StateBuilder } from '../domain/state-builder.js';
import { DEFAULT_MIME, newNode } from '../domain/node-records.js';
import { recordDict } from '../domain/record-values.js';
import type { Recording } from './format.js';
import { recordingToState } from './recording-to-state.js';
import type { RecordedTree } from './recorded-tree.js';

/**
 * Replaces each recorded user's tree in the store with the recorded one (same ids, so links from
 * the recording stay valid), in one transaction. Objects whose parent the recording never shows go
 * under the root. The blobs of the replaced trees are dropped after the commit.
 */
export async function seedFromRecording(
  store: CloudStore,
  recording: Recording,
): Promise<{ containers: number; files: number }> {
  return seedFromRecordedTree(store, recordingToState(recording));
}

/** Replaces each user's tree in the store with the given recorded tree (see seedFromRecording). */
export async function seedFromRecordedTree(
  store: CloudStore,
  tree: RecordedTree,
): Promise<{ containers: number; files: number }> {
  const counts = { containers: 0, files: 0 };
  const now = store.now();
  const built = store.builder();
  for (const user of recordedUsers(tree)) {
    const known = store.tree.users().includes(user) ? store.root(user).id : undefined;
    const rootId = built.addUser(user, tree.roots.get(user) ?? known).id;
    addRecordedTree(built, tree, user, rootId, now, counts);
  }
  try {
    await built.writeBlobs();
    await store.replaceUsers(built);
  } catch (err) {
    await built.discard();
    throw err;
  }
  return counts;
}

/** The logins a recorded tree shows (a root, or an object of theirs). */
export function recordedUsers(tree: RecordedTree): Set<string> {
  return new Set([...tree.roots.keys(), ...[...tree.objects.values()].map((o) => o.user)]);
}

/** Adds one user's recorded objects below `rootId` (the user is already in `built`). */
export function addRecordedTree(
  built: StateBuilder,
  tree: RecordedTree,
  user: string,
  rootId: string,
  now: number,
  counts = { containers: 0, files: 0 },
): void {
  const live = [...tree.objects.values()].filter((o) => o.user === user && !o.deleted && o.id !== rootId);
  const liveIds = new Set([rootId, ...live.map((o) => o.id)]);
  for (const o of live) {
    const parentId = o.parentId && liveIds.has(o.parentId) ? o.parentId : rootId;
    const node = {
      ...newNode(user, o.kind, o.name ?? o.id, parentId, now, o.id),
      tags: [...o.tags],
      metadata: recordDict(o.metadata),
    };
    if (o.kind === 'file') {
      Object.assign(node, { mimeType: o.mimeType || DEFAULT_MIME, public: o.public ?? false });
      counts.files++;
    } else counts.containers++;
    // Content the recording never showed: zero bytes of the recorded size, so sizes still agree.
    built.addRecord(node, o.content ?? Buffer.alloc(o.bytes ?? 0));
  }
}
