import { createHash } from 'node:crypto';
import { lstat, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CloudStore } from '../domain/cloud-store.js';
import type { NodeRecord } from '../domain/model.js';

/** One entry of a tree, by its path from the tree's root ("/Documents/notes.md"). */
export interface TreeEntry {
  path: string;
  kind: 'file' | 'folder' | 'other';
  /** Files only. */
  bytes?: number;
  /** Files only: the content's SHA-256, hex. */
  sha256?: string;
}

/** Entries by path, sorted by path. */
export type Tree = Map<string, TreeEntry>;

export const sha256Of = (content: Buffer | string): string => createHash('sha256').update(content).digest('hex');

export function treeOf(entries: readonly TreeEntry[]): Tree {
  return new Map([...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).map((e) => [e.path, e]));
}

/**
 * The folder as a tree. Symlinks, devices and the like are 'other' (never followed: a sync folder holding a
 * link to / must not make the oracle read the disk); a missing folder is an empty tree.
 */
export async function localTree(dir: string): Promise<Tree> {
  const entries: TreeEntry[] = [];
  const work: string[] = [''];
  for (let rel = work.pop(); rel !== undefined; rel = work.pop()) {
    let names: string[];
    try {
      names = await readdir(join(dir, rel));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' && rel === '') return new Map();
      throw err;
    }
    for (const name of names) {
      const path = `${rel}/${name}`;
      const stat = await lstat(join(dir, path));
      if (stat.isDirectory()) {
        entries.push({ path, kind: 'folder' });
        work.push(path);
      } else if (stat.isFile()) {
        const content = await readFile(join(dir, path));
        entries.push({ path, kind: 'file', bytes: content.length, sha256: sha256Of(content) });
      } else entries.push({ path, kind: 'other' });
    }
  }
  return treeOf(entries);
}

async function contentHash(store: CloudStore, node: NodeRecord): Promise<string> {
  const hash = createHash('sha256');
  if (node.blobId) for await (const chunk of store.blobs.read(node.blobId)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A user's live tree in a store, each file's content hashed as it streams (trees may be deep: no recursion). */
export async function accountTree(store: CloudStore, user: string): Promise<TreeEntry[]> {
  const entries: TreeEntry[] = [];
  const work = store.tree.children(store.root(user).id).map((node) => ({ node, parent: '' }));
  for (let item = work.pop(); item; item = work.pop()) {
    const { node, parent } = item;
    const path = `${parent}/${node.name}`;
    if (node.kind === 'container') {
      entries.push({ path, kind: 'folder' });
      for (const child of store.tree.children(node.id)) work.push({ node: child, parent: path });
    } else entries.push({ path, kind: 'file', bytes: node.bytes, sha256: await contentHash(store, node) });
  }
  return [...treeOf(entries).values()];
}
