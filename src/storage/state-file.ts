import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { parseSyntheticBlobId } from './synthetic-content.js';

/** The snapshot is written to "<dir>/.<name>.tmp" (as lowdb's own writer does), then renamed over the file. */
export function stateTempFileOf(file: string): string {
  return join(dirname(file), `.${basename(file)}.tmp`);
}

/** Drops the temp file a crash during a state write may have left (the real file is still whole). */
export async function dropStateTempFile(file: string): Promise<void> {
  await rm(stateTempFileOf(file), { force: true });
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What makes `value` unusable as a schema-1 state, or undefined when it is one. */
export function stateProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'the top level is not an object';
  if (value['schema'] !== 1) return `schema is ${JSON.stringify(value['schema'])}, expected 1`;
  const { users, nodes } = value;
  if (!isRecord(users)) return '"users" is not an object';
  if (!isRecord(nodes)) return '"nodes" is not an object';
  if (value['queues'] !== undefined && !isRecord(value['queues'])) return '"queues" is not an object';
  // Keys one at a time: Object.entries would allocate a pair per node (100,000 at scale).
  for (const id of Object.keys(nodes)) {
    const why = nodeProblem(id, nodes[id]);
    if (why) return why;
  }
  const roots = new Set<string>();
  for (const [login, user] of Object.entries(users)) {
    const rootId = isRecord(user) ? user['rootId'] : undefined;
    if (typeof rootId !== 'string' || !isRecord(nodes[rootId])) return `user "${login}" has no root container`;
    roots.add(rootId);
  }
  return treeProblem(nodes as Record<string, { parentId: string | null }>, roots);
}

/**
 * Every node hangs below a user's root: its parent exists, and following parents never comes back
 * to a node already on the way (a cycle would loop forever; a node below a missing parent would
 * vanish from every view). Linear: each node is walked once.
 */
function treeProblem(
  nodes: Record<string, { parentId: string | null }>,
  roots: ReadonlySet<string>,
): string | undefined {
  /** 1: on the walk under way; 2: known to reach a root. */
  const seen = new Map<string, 1 | 2>();
  for (const start of Object.keys(nodes)) {
    const path: string[] = [];
    let id: string | null = start;
    while (id !== null && seen.get(id) === undefined) {
      const parentId: string | null = nodes[id]!.parentId;
      if (parentId === null && !roots.has(id)) return `node "${id}" has no parent and is no user's root`;
      if (parentId !== null && !Object.hasOwn(nodes, parentId))
        return `node "${id}" has parent "${parentId}", which is not in the state`;
      seen.set(id, 1);
      path.push(id);
      id = parentId;
    }
    if (id !== null && seen.get(id) === 1) {
      const cycle = path.slice(path.indexOf(id));
      return `nodes ${[...cycle, id].map((n) => JSON.stringify(n)).join(' -> ')} form a parent cycle`;
    }
    for (const done of path) seen.set(done, 2);
  }
  return undefined;
}

const BLOB_ID = /^[0-9a-f]{32}$/;

function nodeProblem(id: string, node: unknown): string | undefined {
  if (!isRecord(node) || node['id'] !== id) return `node "${id}" is malformed`;
  if (node['kind'] !== 'container' && node['kind'] !== 'file')
    return `node "${id}" has kind ${JSON.stringify(node['kind'])}`;
  if (typeof node['name'] !== 'string' || typeof node['owner'] !== 'string')
    return `node "${id}" lacks a name or owner`;
  if (typeof node['bytes'] !== 'number' || !(node['blobId'] === null || typeof node['blobId'] === 'string')) {
    return `node "${id}" has no valid bytes/blobId`;
  }
  if (typeof node['blobId'] === 'string' && !BLOB_ID.test(node['blobId']) && !parseSyntheticBlobId(node['blobId']))
    return `node "${id}" names blob "${node['blobId']}"`;
  if (!(node['parentId'] === null || typeof node['parentId'] === 'string'))
    return `node "${id}" has a parentId that is neither null nor a string`;
  const tags = node['tags'];
  if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string'))
    return `node "${id}" has tags that are not a list of strings`;
  for (const key of ['metadata', 'deadProps'] as const) {
    const dict = node[key];
    if (!isRecord(dict) || Object.values(dict).some((v) => typeof v !== 'string'))
      return `node "${id}" has ${key} that is not an object of strings`;
  }
  return undefined;
}
