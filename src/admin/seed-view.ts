import { extname } from 'node:path';
import type { Readable } from 'node:stream';
import type { CloudStore } from '../domain/cloud-store.js';
import type { ScenarioDefinition, SeedNode } from '../scenarios/types.js';
import type { NodeRecord } from '../domain/model.js';

/** Files up to this size are inlined (text or base64); larger ones become fixture references. */
export const DEFAULT_INLINE_LIMIT = 64 * 1024;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The fixture path a large file is exported under (relative to the scenario file): fixtures/<id><ext>. */
export function fixturePathOf(node: NodeRecord): string {
  const ext = extname(node.name).replace(/[^.\w-]/g, '');
  return `fixtures/${node.id}${ext}`;
}

/** One node as a seed entry, without its children (`children` given: the list to fill in later). */
async function seedEntry(
  store: CloudStore,
  node: NodeRecord,
  inlineLimit: number,
  children: SeedNode[] | undefined,
): Promise<SeedNode> {
  const out: SeedNode = node.kind === 'container' ? { container: node.name } : { file: node.name };
  if (children) out.children = children;
  if (node.kind === 'file') {
    out.mimeType = node.mimeType;
    if (node.public) out.public = true;
    if (node.blobId && node.bytes > 0) {
      if (node.bytes > inlineLimit) {
        out.fixture = fixturePathOf(node);
      } else {
        const content = await readAll(store.blobs.read(node.blobId));
        const text = content.toString('utf8');
        if (Buffer.from(text, 'utf8').equals(content) && !/[\u0000-\u0008\u000e-\u001f]/.test(text)) out.text = text;
        else out.base64 = content.toString('base64');
      }
    }
  }
  if (node.tags.length) out.tags = [...node.tags];
  if (Object.keys(node.metadata).length) out.metadata = { ...node.metadata };
  return out;
}

/** The seed entries of `nodes` and everything below them, built without recursion (trees may be deep). */
async function seedTree(store: CloudStore, nodes: NodeRecord[], inlineLimit: number): Promise<SeedNode[]> {
  const top: SeedNode[] = [];
  // Breadth first: a container's children are queued together, in order, so each list fills in order.
  const work: Array<{ node: NodeRecord; into: SeedNode[] }> = nodes.map((node) => ({ node, into: top }));
  for (let i = 0; i < work.length; i++) {
    const { node, into } = work[i]!;
    const kids = node.kind === 'container' ? store.childrenOf(node.id) : [];
    const children: SeedNode[] | undefined = kids.length > 0 ? [] : undefined;
    into.push(await seedEntry(store, node, inlineLimit, children));
    for (const kid of kids) work.push({ node: kid, into: children! });
  }
  return top;
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
  for (const user of store.users()) {
    const root = store.root(user);
    trees[user] = await seedTree(store, store.children(user, root.id), inlineLimit);
  }
  return { description: `state exported from scenario ${scenario} at ${new Date().toISOString()}`, seed: { trees } };
}

/** The live file with this id, in any user's tree, for exporting a fixture. */
export function exportedFile(store: CloudStore, id: string): NodeRecord | undefined {
  const node = store.nodeById(id);
  return node?.kind === 'file' && store.isLive(node) ? node : undefined;
}
