import type { Request, Response } from 'express';
import type { Answer } from '../http/answer.js';
import type { CloudStore } from '../domain/cloud-store.js';
import { HttpError, badRequest } from '../http/errors.js';
import { hasBody } from './body.js';
import { writeContext } from './conditions.js';
import { leafName, targetOf } from './target.js';
import { MAPPED_RESOURCE_METHODS } from './allowed-methods.js';
import { notFound } from '../domain/errors.js';

/** MKCOL: 201; 405 when something is there; 409 without a parent; 415 with a body (RFC 4918 9.3). */
export async function mkcol(store: CloudStore, req: Request, res: Response): Promise<Answer> {
  const target = targetOf(store, req, res);
  if (hasBody(req)) throw new HttpError(415, 'MKCOL with a body is not supported');
  if (target.node)
    throw new HttpError(405, 'something already exists at this address', {
      headers: { Allow: MAPPED_RESOURCE_METHODS },
    });
  if (!target.parent) throw new HttpError(409, 'the parent collection does not exist');
  const ctx = writeContext(store, req, target.user, target.names);
  await store.createContainer(target.user, target.parent.id, leafName(target), ctx);
  return { status: 201 };
}

/** DELETE: the object (with its subtree) goes to the recycle bin, as a REST DELETE does; 204. */
export async function remove(store: CloudStore, req: Request, res: Response): Promise<Answer> {
  const target = targetOf(store, req, res);
  const { node } = target;
  if (!node) throw notFound('resource', `nothing at ${req.originalUrl}`);
  if (node.parentId === null) throw new HttpError(403, 'the root collection cannot be deleted');
  const depth = req.get('depth')?.trim().toLowerCase();
  if (node.kind === 'container' && depth !== undefined && depth !== 'infinity')
    throw badRequest('DELETE of a collection needs Depth: infinity');
  const ctx = writeContext(store, req, target.user, target.names, { entityTags: true });
  await store.recycleBin.add(target.user, node.id, ctx);
  return { status: 204 };
}
