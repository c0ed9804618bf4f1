import { setImmediate as nextTurn } from 'node:timers/promises';
import type { NodeRecord } from '../storage/schema.js';
import { conflict, notFound } from './errors.js';
import { checkName } from './names.js';
import { copiedNode } from './node-records.js';
import type { Plan, StoreCore, WriteContext } from './store-core.js';
import { NO_TAGS, recordDict } from './record-values.js';
import { failpoint } from '../storage/failpoints.js';

/** Nodes prepared between two turns of the event loop, so other clients are served meanwhile. */
export const SLICE = 500;
/** Optimistic preparations before one is done while holding the transaction queue. */
const ATTEMPTS = 3;

export interface CopyOptions extends WriteContext {
  /** Copy the container alone, with its dead properties (WebDAV COPY with Depth 0). */
  shallow?: boolean;
  /** A live node at the destination to recycle in the same transaction (Overwrite: T). */
  replaceId?: string;
}

/** What a preparation read (checked for changes at commit) and what it built from it. */
interface Prepared<P> {
  read: NodeRecord[];
  built: P;
}

/**
 * Runs a tree operation whose change is prepared in slices outside the transaction queue, then
 * validated at commit: if any node it read changed meanwhile, it is prepared again; the last attempt
 * holds the queue (still yielding to reads) so it cannot starve.
 */
async function sliced<P, T>(
  core: StoreCore,
  prepare: () => Promise<Prepared<P>>,
  commit: (prepared: Prepared<P>) => Plan<T>,
): Promise<T> {
  const unwatch = core.tree.watch();
  try {
    for (let attempt = 1; attempt < ATTEMPTS; attempt++) {
      const generation = core.tree.generation;
      const prepared = await prepare();
      const outcome = await core.transact<T | typeof STALE>(() =>
        prepared.read.some((n) => core.tree.changedSince(n.id, generation)) ? { result: STALE } : commit(prepared),
      );
      if (outcome !== STALE) return outcome as T;
    }
    return await core.transact(async () => commit(await prepare()));
  } finally {
    unwatch();
  }
}

const STALE = Symbol('stale');

/** The live subtree of `top`, parents first, read in slices. */
async function liveSubtree(core: StoreCore, top: NodeRecord): Promise<NodeRecord[]> {
  const out: NodeRecord[] = [top];
  for (let i = 0; i < out.length; i++) {
    if (i % SLICE === SLICE - 1) await nextTurn();
    const n = out[i]!;
    if (n.kind !== 'container') continue;
    for (const id of core.tree.childIds(n.id)) {
      const kid = core.tree.node(id)!;
      if (kid.recycled === null) out.push(kid);
    }
  }
  return out;
}

/** Every node under (and including) `top`, recycled ones too (what a purge removes), read in slices. */
async function wholeSubtree(core: StoreCore, top: NodeRecord): Promise<NodeRecord[]> {
  const out: NodeRecord[] = [top];
  for (let i = 0; i < out.length; i++) {
    if (i % SLICE === SLICE - 1) await nextTurn();
    for (const id of core.tree.childIds(out[i]!.id)) out.push(core.tree.node(id)!);
  }
  return out;
}

/** Deep copy of a live object into `targetId`: one transaction, linear in the subtree, no recursion. */
export async function copyTree(
  core: StoreCore,
  user: string,
  id: string,
  targetId: string,
  newName: string | undefined,
  options: CopyOptions = {},
): Promise<NodeRecord> {
  const check = (): { source: NodeRecord; name: string } => {
    const source = core.liveNode(user, id);
    core.liveNode(user, targetId, 'container');
    if (source.kind === 'container' && core.tree.isWithin(targetId, source.id))
      throw conflict('a container cannot be copied into itself');
    const name = newName !== undefined ? checkName(newName) : source.name;
    const replaced = options.replaceId ? core.liveNode(user, options.replaceId) : undefined;
    if (replaced && (replaced.parentId !== targetId || replaced.name.normalize('NFC') !== name))
      throw conflict('the node to overwrite is not at the destination');
    core.checkWrite(user, { members: [targetId], ...(replaced && { remove: replaced.id }) }, options);
    core.assertFree(targetId, name, replaced?.id);
    return { source, name };
  };
  const { name } = check(); // fail fast before preparing
  return sliced(
    core,
    async () => {
      const source = core.liveNode(user, id);
      const read = options.shallow || source.kind === 'file' ? [source] : await liveSubtree(core, source);
      const now = core.now();
      const newIds = new Map<string, string>();
      const copies: NodeRecord[] = [];
      for (const [i, from] of read.entries()) {
        if (i % SLICE === SLICE - 1) await nextTurn();
        const copy = copiedNode(
          from,
          i === 0 ? targetId : newIds.get(from.parentId!)!,
          i === 0 ? name : from.name,
          now,
        );
        if (options.shallow && from.kind === 'container')
          Object.assign(copy, { tags: NO_TAGS, metadata: recordDict() });
        newIds.set(from.id, copy.id);
        copies.push(copy);
      }
      failpoint('copy-prepared-before-commit');
      return { read, built: copies };
    },
    ({ read, built: copies }) => {
      const { source } = check();
      if (read[0]!.id !== source.id) throw notFound('object');
      const replaced = options.replaceId ? [{ ...core.tree.node(options.replaceId)!, recycled: core.now() }] : [];
      return { change: { nodes: [...replaced, ...copies, ...core.touched(targetId)] }, result: copies[0]! };
    },
  );
}

/** Deletes for good (a recycled item, or with `live` a live object): one transaction, blobs dropped after it. */
export async function purgeTree(core: StoreCore, user: string, id: string, live: boolean): Promise<void> {
  const top = (): NodeRecord => {
    const node = live ? core.liveNode(user, id) : core.tree.node(id);
    if (!node || node.owner !== user || (!live && node.recycled === null)) throw notFound('recycle bin item');
    if (node.parentId === null) throw conflict('the root container cannot be deleted');
    return node;
  };
  top();
  const doomed = await sliced(
    core,
    async () => ({ read: await wholeSubtree(core, top()), built: undefined }),
    ({ read }) => {
      const node = top();
      if (read[0]!.id !== node.id) throw notFound('recycle bin item');
      const change = {
        removed: read.map((n) => n.id),
        nodes: live && node.parentId ? core.touched(node.parentId) : [],
      };
      return { change, result: read };
    },
  );
  await core.dropUnreferenced(doomed.map((n) => n.blobId));
}
