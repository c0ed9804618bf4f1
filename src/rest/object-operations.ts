import type { Request, Response } from 'express';
import type { NodeKind } from '../domain/model.js';
import type { Answer } from '../http/answer.js';
import { badRequest, unsupportedMediaType } from '../http/errors.js';
import { storeOf } from '../http/service-context.js';
import {
  MEDIA,
  NO_CONTENT,
  createdAnswer,
  idFromHref,
  linksOf,
  requestMediaType,
  param,
  userOf,
} from './request-params.js';

/** Copy: POST <resource> with Content-Location naming the destination container and an empty entity. */
export async function copyObject(req: Request, res: Response, kind: NodeKind): Promise<Answer> {
  if (requestMediaType(req) === MEDIA.multipart) {
    // Only a container's contents accept a multipart POST (the interface document says so).
    throw unsupportedMediaType(req.headers['content-type'], ['(none: copy takes an empty entity)']);
  }
  const target = req.headers['content-location'];
  if (!target) throw badRequest('copy needs a Content-Location header naming the destination container');
  const targetId = idFromHref(target, 'containers');
  if (!targetId) throw badRequest(`Content-Location must be a container address, got "${target}"`);
  const store = storeOf(res);
  const user = userOf(res);
  store.get(user, param(req, 'id'), kind);
  const copy = await store.copy(user, param(req, 'id'), targetId);
  return createdAnswer(linksOf(res).resource(copy.kind, copy.id));
}

/** DELETE: 204, and the object moves to the recycle bin (inferred). */
export async function deleteObject(req: Request, res: Response, kind: NodeKind): Promise<Answer> {
  const store = storeOf(res);
  const user = userOf(res);
  store.get(user, param(req, 'id'), kind);
  await store.recycleBin.add(user, param(req, 'id'));
  return NO_CONTENT;
}
