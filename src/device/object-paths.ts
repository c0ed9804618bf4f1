import type { CloudStore } from '../domain/cloud-store.js';
import { DomainError, notFound } from '../domain/errors.js';
import type { NodeRecord } from '../domain/model.js';

/** "/Documents/report.txt" -> ["Documents", "report.txt"]; empty segments are ignored. */
export function namesOf(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

/** The live object at `path` in `user`'s tree, of `kind` when given; a clear not-found otherwise. */
export function objectAt(store: CloudStore, user: string, path: string, kind?: 'file' | 'container'): NodeRecord {
  if (!store.tree.users().includes(user))
    throw notFound('user', `no user "${user}" (users: ${store.tree.users().join(', ')})`);
  const node = store.resolvePath(user, namesOf(path));
  if (!node) throw notFound('object', `nothing at ${path} in ${user}'s tree`);
  if (kind && node.kind !== kind)
    throw new DomainError('conflict', `${path} in ${user}'s tree is a ${node.kind === 'file' ? 'file' : 'folder'}`);
  return node;
}

/** The folder a new object at `path` goes into, and its name. */
export function placeOf(store: CloudStore, user: string, path: string): { parent: NodeRecord; name: string } {
  const names = namesOf(path);
  const name = names.pop();
  if (name === undefined) throw new DomainError('invalid', 'a new object needs a name after the last "/"');
  return { parent: objectAt(store, user, `/${names.join('/')}`, 'container'), name };
}
