import { extname } from 'node:path';
import { buffer } from 'node:stream/consumers';
import type { CloudStore } from '../domain/cloud-store.js';
import type { ScenarioDefinition, SeedNode } from '../scenarios/types.js';
import type { NodeRecord } from '../domain/model.js';
import { mapTree } from './state-view.js';

/** Files up to this size are inlined (text or base64); larger ones become fixture references. */
export const DEFAULT_INLINE_LIMIT = 64 * 1024;

/** The fixture path a large file is exported under (relative to the scenario file): fixtures/<id><ext>. */
export function fixturePathOf(node: NodeRecord): string {
  const ext = extname(node.name).replace(/[^.\w-]/g, '');
  return `fixtures/${node.id}${ext}`;
}

/** One node as a seed entry; a file's content is read later (`reads`), keeping the walk synchronous. */
function seedEntry(
  node: NodeRecord,
  children: SeedNode[] | undefined,
  inlineLimit: number,
  reads: Array<[SeedNode, string]>,
): SeedNode {
  const out: SeedNode = node.kind === 'container' ? { container: node.name } : { file: node.name };
  if (children) out.children = children;
  if (node.kind === 'file') {
    out.mimeType = node.mimeType;
    if (node.public) out.public = true;
    if (node.blobId && node.bytes > 0) {
      if (node.bytes > inlineLimit) out.fixture = fixturePathOf(node);
      else reads.push([out, node.blobId]);
    }
  }
  if (node.tags.length) out.tags = [...node.tags];
  if (Object.keys(node.metadata).length) out.metadata = { ...node.metadata };
  return out;
}

/** A small file's content inline: as text when it is text, else base64; before its tags and metadata, as people write it. */
async function inlineContent(store: CloudStore, entry: SeedNode, blobId: string): Promise<void> {
  const content = await buffer(store.blobs.read(blobId));
  const { tags, metadata } = entry;
  delete entry.tags;
  delete entry.metadata;
  const text = content.toString('utf8');
  if (Buffer.from(text, 'utf8').equals(content) && !/[\u0000-\u0008\u000e-\u001f]/.test(text)) entry.text = text;
  else entry.base64 = content.toString('base64');
  if (tags) entry.tags = tags;
  if (metadata) entry.metadata = metadata;
}

/**
 * The live state as a scenario a file can hold: every user's tree under seed.trees, contents inline
 * up to `inlineLimit` bytes, larger files as fixture references (fetch them from /__admin/content/<id>).
 * Passwords are not exported: give the logins with --user or the scenario's seed.users.
 */
export async function seedView(
  store: CloudStore,
  scenario: string,
  inlineLimit = DEFAULT_INLINE_LIMIT,
): Promise<ScenarioDefinition> {
  // Logins are user-given keys ("__proto__" too).
  const trees = Object.create(null) as Record<string, SeedNode[]>;
  const reads: Array<[SeedNode, string]> = [];
  for (const user of store.tree.users()) {
    const make = (node: NodeRecord, children: SeedNode[] | undefined): SeedNode =>
      seedEntry(node, children, inlineLimit, reads);
    trees[user] = mapTree(store, store.tree.children(store.root(user).id), make);
  }
  for (const [entry, blobId] of reads) await inlineContent(store, entry, blobId);
  return { description: `state exported from scenario ${scenario} at ${new Date().toISOString()}`, seed: { trees } };
}

/** The live file with this id, in any user's tree, for exporting a fixture. */
export function exportedFile(store: CloudStore, id: string): NodeRecord | undefined {
  const node = store.tree.node(id);
  return node?.kind === 'file' && store.tree.isLive(node) ? node : undefined;
}
