import type { Request, Response } from 'express';
import type { Answer } from '../http/answer.js';
import type { CloudStore } from '../domain/cloud-store.js';
import { HttpError } from '../http/errors.js';
import { mediaTypeOf } from '../http/media-type.js';
import { contentAnswer, contentEtag } from '../http/content-answer.js';
import { writeContext } from './conditions.js';
import { collectionListingAnswer } from './html-listing.js';
import { leafName, targetOf } from './target.js';
import { MAPPED_RESOURCE_METHODS } from './allowed-methods.js';
import { notFound } from '../domain/errors.js';

/** GET (and HEAD) of a file under /dav is its content; a collection lists its children, one a line (an HTML page for browsers). */
export function getOrHead(store: CloudStore, req: Request, res: Response): Answer | Promise<Answer> {
  const { node, names } = targetOf(store, req, res);
  if (!node) throw notFound('resource', `nothing at /dav${req.path}`);
  if (node.kind === 'container') return collectionListingAnswer(store, req, res, names, node);
  store.touchAccessed(node);
  return contentAnswer(req, node, store.blobs);
}

/** PUT streams the body into a new file (201) or a new version of an existing one (204). */
export async function put(store: CloudStore, req: Request, res: Response): Promise<Answer> {
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
  return { status: node ? 204 : 201, headers: { ETag: contentEtag(written) } };
}

function mimeOf(req: Request): string | undefined {
  return mediaTypeOf(req.headers['content-type'], { keepCase: true }) || undefined;
}
