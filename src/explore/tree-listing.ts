import { createHash } from 'node:crypto';
import { lstat, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { StateNode } from '../admin/state-view.js';
import type { RemoteMock } from '../remote/connect-mock.js';

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

function sorted(entries: TreeEntry[]): Tree {
  return new Map(entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).map((e) => [e.path, e]));
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
  return sorted(entries);
}

/**
 * A user's live tree in a mock, through its admin API (the same for a mock in this process and elsewhere).
 * `hashes` keeps each file version's hash between calls, so a run reads each content once.
 */
export async function remoteTree(mock: RemoteMock, user: string, hashes = new Map<string, string>()): Promise<Tree> {
  const view = await mock.state({ user });
  const entries: TreeEntry[] = [];
  const work: Array<{ node: StateNode; parent: string }> = view.users[user]!.tree.map((node) => ({ node, parent: '' }));
  for (let item = work.pop(); item; item = work.pop()) {
    const { node, parent } = item;
    if ('container' in node) {
      const path = `${parent}/${node.container}`;
      entries.push({ path, kind: 'folder' });
      for (const child of node.children) work.push({ node: child, parent: path });
    } else {
      const key = `${node.id}:${node.version}:${node.bytes}`;
      let sha256 = hashes.get(key);
      if (sha256 === undefined) {
        sha256 = sha256Of(await mock.content(node.id));
        hashes.set(key, sha256);
      }
      entries.push({ path: `${parent}/${node.file}`, kind: 'file', bytes: node.bytes, sha256 });
    }
  }
  return sorted(entries);
}
