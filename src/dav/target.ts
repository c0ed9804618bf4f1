import type { Request, Response } from 'express';
import type { CloudStore } from '../domain/cloud-store.js';
import { badRequest } from '../http/errors.js';
import { userOf } from '../http/auth.js';
import type { NodeRecord } from '../domain/model.js';
import { davNames } from './paths.js';

/** What a /dav request addresses: the user's names, the node there (if any) and its parent container. */
export interface DavTarget {
  user: string;
  names: string[];
  node: NodeRecord | undefined;
  /** The container the last name would live in; undefined when that path is missing or not a container. */
  parent: NodeRecord | undefined;
}

/** The mount point ("/dav") hrefs are built under. */
export function baseOf(req: Request): string {
  return req.baseUrl;
}

export function targetOf(store: CloudStore, req: Request, res: Response): DavTarget {
  // A fragment never reaches a server from a browser; a raw "#" here would silently cut the path.
  if (req.originalUrl.includes('#')) throw badRequest('a request URI must not contain "#" (encode it as %23)');
  return resolveNames(store, userOf(res), davNames(req.path));
}

export function resolveNames(store: CloudStore, user: string, names: string[]): DavTarget {
  const node = store.resolvePath(user, names);
  const parentNode = names.length > 0 ? store.resolvePath(user, names.slice(0, -1)) : undefined;
  const parent = parentNode?.kind === 'container' ? parentNode : undefined;
  return { user, names, node, parent };
}

/** The last name, for creations (the root has none). */
export function leafName(target: DavTarget): string {
  return target.names[target.names.length - 1] ?? '';
}
