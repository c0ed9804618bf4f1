import type { NextFunction, Request, Response } from 'express';
import type { CloudStore } from '../domain/cloud-store.js';
import { HttpError } from '../http/errors.js';
import { mediaTypeOf } from '../http/media-type.js';
import { contentEtag, sendContent } from '../http/send-content.js';
import { writeContext } from './conditions.js';
import { sendCollectionListing } from './html-listing.js';
import { leafName, targetOf } from './target.js';
import { MAPPED_RESOURCE_METHODS } from './allowed-methods.js';
import { notFound } from '../domain/errors.js';

/** GET (and HEAD) of a file under /dav is its content; a collection lists its children, one a line (an HTML page for browsers). */
export async function getOrHead(store: CloudStore, req: Request, res: Response, next: NextFunction): Promise<void> {
  const { node, names } = targetOf(store, req, res);
  if (!node) throw notFound('resource', `nothing at /dav${req.path}`);
  if (node.kind === 'file') {
    store.touchAccessed(node);
    sendContent(res, next, node, store.blobs);
    return;
  }
  await sendCollectionListing(store, req, res, names, node);
}

/** PUT streams the body into a new file (201) or a new version of an existing one (204). */
export async function put(store: CloudStore, req: Request, res: Response): Promise<void> {
  const target = targetOf(store, req, res);
  const { user, node, parent } = target;
  if (node?.kind === 'container')
    throw new HttpError(405, 'PUT on a collection is not allowed', { headers: { Allow: MAPPED_RESOURCE_METHODS } });
  if (req.headers['content-range'])
    throw new HttpError(400, 'Content-Range on a WebDAV PUT is not supported; use PUT /v2/files/<id>/content');
  if (!node && !parent) throw new HttpError(409, 'the parent collection does not exist');
  const ctx = writeContext(store, req, user, target.names, { entityTags: true });
  const written = node
    ? await store.writeContent(user, node.id, req, undefined, ctx)
    : await store.createFile(user, parent!.id, { name: leafName(target), mimeType: mimeOf(req) }, req, ctx);
  res.setHeader('ETag', contentEtag(written));
  res.status(node ? 204 : 201).end();
}

function mimeOf(req: Request): string | undefined {
  return mediaTypeOf(req.headers['content-type'], { keepCase: true }) || undefined;
}
