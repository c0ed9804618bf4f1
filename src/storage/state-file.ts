import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

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
  for (const [login, user] of Object.entries(users)) {
    const rootId = isRecord(user) ? user['rootId'] : undefined;
    if (typeof rootId !== 'string' || !isRecord(nodes[rootId])) return `user "${login}" has no root container`;
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
  if (typeof node['blobId'] === 'string' && !BLOB_ID.test(node['blobId']))
    return `node "${id}" names blob "${node['blobId']}"`;
  return undefined;
}
