import type { Request, Response } from 'express';
import { serviceOf, storeOf } from '../http/service-context.js';
import { fileEntity, permissionsEntity } from '../xml/entities.js';
import { parseFileInfo } from '../xml/requests.js';
import { badRequest, methodNotAllowed, unsupportedMediaType } from '../http/errors.js';
import { isMediaType } from '../http/media-type.js';
import { contentAnswer, parseContentRangeOffset } from '../http/content-answer.js';
import type { Answer } from '../http/answer.js';
import {
  MEDIA,
  NO_CONTENT,
  depthOf,
  entityTexts,
  entityOf,
  parentIdFrom,
  linksOf,
  requestMediaType,
  resource,
  xmlAnswer,
  xmlTextAnswer,
  param,
  userOf,
  type RestRoutes,
} from './request-params.js';
import { copyObject, deleteObject } from './object-operations.js';
import { metadataKeysAt } from './views.js';
import { notFound } from '../domain/errors.js';
import { markParent } from '../http/journal-marks.js';
import { receivePart } from './multipart-upload.js';

/** Files: entity, rename/move/public, copy, delete, content read and write (PUT and GET of /v2/files/<id>/content). */
export function filesRouter(router: RestRoutes): void {
  resource(router, '/files/:id', {
    GET: (req, res) => {
      const node = storeOf(res).get(userOf(res), param(req, 'id'), 'file');
      if (node.parentId) markParent(res, node.parentId);
      const entity = fileEntity(node, linksOf(res), metadataKeysAt(node, depthOf(req)), entityTexts(res));
      return xmlTextAnswer(MEDIA.file, entity.text, entity.tag);
    },
    PUT: async (req, res) => {
      const body = await entityOf(req, res);
      if (requestMediaType(req) !== MEDIA.file) throw unsupportedMediaType(requestMediaType(req), [MEDIA.file]);
      const info = parseFileInfo(body);
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
      return NO_CONTENT;
    },
    POST: (req, res) => copyObject(req, res, 'file'),
    DELETE: (req, res) => deleteObject(req, res, 'file'),
  });

  const download = (req: Request, res: Response): Answer | Promise<Answer> => {
    const store = storeOf(res);
    const node = store.get(userOf(res), param(req, 'id'), 'file');
    store.touchAccessed(node);
    return contentAnswer(req, node, store.blobs);
  };

  resource(
    router,
    '/files/:id/content',
    {
      GET: download,
      PUT: async (req, res) => {
        const offset = parseContentRangeOffset(req.headers['content-range']);
        if (offset === 'invalid') throw badRequest('Content-Range must look like "bytes a-b/*"');
        // The store checks owner, locks and the block's base at commit, after the body has streamed.
        await storeOf(res).writeContent(userOf(res), param(req, 'id'), req, offset);
        return NO_CONTENT;
      },
      POST: async (req, res) => {
        // The document allows multipart on ContainerContents only: 405 here unless the scenario deviates.
        const store = storeOf(res);
        if (!serviceOf(res).rules.deviates('multipart-content-overwrite') || requestMediaType(req) !== MEDIA.multipart)
          throw methodNotAllowed(['GET', 'PUT', 'HEAD']);
        const user = userOf(res);
        const id = param(req, 'id');
        store.get(user, id, 'file');
        // Any single file part (the client names it Filedata); a second part is refused after the first is written.
        await receivePart(req, res, (_name, _type, content) => store.writeContent(user, id, content), {});
        return NO_CONTENT;
      },
    },
    ['GET', 'PUT'],
  );

  // One sync client downloads from <file>/content/<file name>.
  resource(router, '/files/:id/content/:name', { GET: download });

  resource(router, '/files/:id/permissions', {
    GET: (req, res) =>
      xmlAnswer(MEDIA.other('permissions'), permissionsEntity(storeOf(res).get(userOf(res), param(req, 'id'), 'file'))),
  });

  resource(router, '/files/:id/thumbnail', {
    GET: (req, res) => {
      storeOf(res).get(userOf(res), param(req, 'id'), 'file');
      throw notFound('thumbnail', 'no thumbnail for this file (the mock renders none)');
    },
  });
}
