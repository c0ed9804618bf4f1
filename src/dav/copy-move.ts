import type { Request, Response } from 'express';
import type { Answer } from '../http/answer.js';
import type { CloudStore } from '../domain/cloud-store.js';
import { HttpError, badRequest } from '../http/errors.js';
import { preconditionFailed, writeContext } from './conditions.js';
import { namesOfUri } from './paths.js';
import { baseOf, leafName, resolveNames, targetOf } from './target.js';
import { notFound } from '../domain/errors.js';

/**
 * COPY and MOVE (RFC 4918 9.8, 9.9): Destination as an absolute URI or path under /dav, Overwrite T
 * (default) or F, COPY Depth 0 or infinity. 201 when the destination was new, 204 when replaced; a
 * replaced destination goes to the recycle bin like a DELETE.
 */
export async function copyOrMove(
  store: CloudStore,
  req: Request,
  res: Response,
  mode: 'copy' | 'move',
): Promise<Answer> {
  const source = targetOf(store, req, res);
  const { user } = source;
  const node = source.node;
  if (!node) throw notFound('resource', `nothing at ${req.originalUrl}`);
  const header = req.get('destination');
  if (!header) throw badRequest('COPY and MOVE need a Destination header');
  const dest = resolveNames(store, user, namesOfUri(header, baseOf(req), req.headers.host));
  const depth = (req.get('depth') ?? 'infinity').trim().toLowerCase();
  if (depth !== 'infinity' && !(mode === 'copy' && depth === '0'))
    throw badRequest(`Depth ${depth} is not allowed for ${mode.toUpperCase()}`);
  const overwrite = (req.get('overwrite') ?? 'T').trim().toUpperCase();
  if (overwrite !== 'T' && overwrite !== 'F') throw badRequest('Overwrite must be T or F');

  if (mode === 'move' && node.parentId === null) throw new HttpError(403, 'the root collection cannot be moved');
  if (dest.names.length === 0 || dest.node?.id === node.id)
    throw new HttpError(403, 'source and destination are the same');
  if (!dest.parent) throw new HttpError(409, 'the destination collection does not exist');
  if (store.tree.isWithin(dest.parent.id, node.id)) throw new HttpError(409, 'a collection cannot go inside itself');
  if (dest.node && store.tree.isWithin(node.id, dest.node.id))
    throw new HttpError(409, 'the destination contains the source');
  if (dest.node && overwrite === 'F')
    throw preconditionFailed('Overwrite', 'the destination exists and Overwrite is F');

  // One transaction each: an overwritten destination is recycled with the move or copy, and the
  // store checks the locks (with the submitted tokens) and the conditions again at commit.
  const ctx = { ...writeContext(store, req, user, source.names, { entityTags: true }), replaceId: dest.node?.id };
  const name = leafName(dest);
  if (mode === 'move') await store.update(user, node.id, { name, parentId: dest.parent.id }, ctx);
  else await store.copy(user, node.id, dest.parent.id, name, { ...ctx, shallow: depth === '0' });
  return { status: dest.node ? 204 : 201 };
}
