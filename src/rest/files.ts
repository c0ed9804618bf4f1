import { Router, type NextFunction, type Request, type Response } from 'express';
import { serviceOf, storeOf } from '../http/service-context.js';
import { fileEntity, permissionsEntity } from '../xml/entities.js';
import { parseFileInfo } from '../xml/requests.js';
import { badRequest, unsupportedMediaType } from '../http/errors.js';
import { isMediaType } from '../http/media-type.js';
import { parseContentRangeOffset, sendContent } from '../http/send-content.js';
import {
  MEDIA,
  bodyBuffer,
  depthOf,
  parentIdFrom,
  linksOf,
  requestMediaType,
  only,
  readEntityBody,
  sendXml,
  param,
  userOf,
} from './request-params.js';
import { copyObject, deleteObject } from './object-operations.js';
import { metadataKeysAt } from './views.js';
import { notFound } from '../domain/errors.js';
import { markParent } from '../http/journal-marks.js';
import { receivePart } from './multipart-upload.js';

/** Files: entity, rename/move/public, copy, delete, content read and write (PUT and GET of /v2/files/<id>/content). */
export function filesRouter(router: Router = Router()): Router {
  router
    .route('/files/:id')
    .get((req, res) => {
      const node = storeOf(res).get(userOf(res), param(req, 'id'), 'file');
      if (node.parentId) markParent(res, node.parentId);
      sendXml(res, MEDIA.file, fileEntity(node, linksOf(res), metadataKeysAt(node, depthOf(req))));
    })
    .put(readEntityBody, async (req, res) => {
      if (requestMediaType(req) !== MEDIA.file) throw unsupportedMediaType(requestMediaType(req), [MEDIA.file]);
      const info = parseFileInfo(bodyBuffer(req));
      // The type is sent back as Content-Type on every read: it must be one a header can carry.
      const mimeType = info.mimeType?.trim();
      if (mimeType && !isMediaType(mimeType)) {
        throw badRequest(
          `mime_type must be a media type such as text/plain; charset=utf-8 (got ${JSON.stringify(mimeType)})`,
        );
      }
      const parentId = parentIdFrom(info.parentHref);
      await storeOf(res).update(userOf(res), param(req, 'id'), {
        name: info.name,
        public: info.public,
        mimeType: info.mimeType,
        parentId,
      });
      res.status(204).end();
    })
    .post(async (req, res) => copyObject(storeOf(res), req, res, 'file'))
    .delete(async (req, res) => deleteObject(storeOf(res), req, res, 'file'))
    .all(only('GET', 'PUT', 'POST', 'DELETE'));

  const download = (req: Request, res: Response, next: NextFunction): void => {
    const store = storeOf(res);
    const node = store.get(userOf(res), param(req, 'id'), 'file');
    store.touchAccessed(node);
    sendContent(res, next, node, store.blobs);
  };

  router
    .route('/files/:id/content')
    .get(download)
    .put(async (req, res) => {
      const offset = parseContentRangeOffset(req.headers['content-range']);
      if (offset === 'invalid') throw badRequest('Content-Range must look like "bytes a-b/*"');
      // The store checks owner, locks and the block's base at commit, after the body has streamed.
      await storeOf(res).writeContent(userOf(res), param(req, 'id'), req, offset);
      res.status(204).end();
    })
    .post(async (req, res, next) => {
      // The document allows multipart on ContainerContents only: 405 here unless the scenario deviates.
      const store = storeOf(res);
      if (!serviceOf(res).rules.deviates('multipart-content-overwrite') || requestMediaType(req) !== MEDIA.multipart)
        return only('GET', 'PUT')(req, res, next);
      const user = userOf(res);
      const id = param(req, 'id');
      store.get(user, id, 'file');
      // Any single file part (the client names it Filedata); a second part is refused after the first is written.
      await receivePart(req, res, (_name, _type, content) => store.writeContent(user, id, content), {});
      res.status(204).end();
    })
    .all(only('GET', 'PUT'));

  // One sync client downloads from <file>/content/<file name>.
  router.route('/files/:id/content/:name').get(download).all(only('GET'));

  router
    .route('/files/:id/permissions')
    .get((req, res) =>
      sendXml(
        res,
        MEDIA.other('permissions'),
        permissionsEntity(storeOf(res).get(userOf(res), param(req, 'id'), 'file')),
      ),
    )
    .all(only('GET'));

  router
    .route('/files/:id/thumbnail')
    .get((req, res) => {
      storeOf(res).get(userOf(res), param(req, 'id'), 'file');
      throw notFound('thumbnail', 'no thumbnail for this file (the mock renders none)');
    })
    .all(only('GET'));

  return router;
}
