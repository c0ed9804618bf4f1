import type { Request, Response } from 'express';
import { serviceOf, storeOf } from '../http/service-context.js';
import type { NodeRecord } from '../domain/model.js';
import type { Answer } from '../http/answer.js';
import { containerEntity } from '../xml/entities.js';
import { parseContainerInfo, parseFileInfo } from '../xml/requests.js';
import { unsupportedMediaType } from '../http/errors.js';
import { receiveUpload } from './multipart-upload.js';
import { markParent } from '../http/journal-marks.js';
import {
  MEDIA,
  NO_CONTENT,
  createdAnswer,
  depthOf,
  entityOf,
  parentIdFrom,
  linksOf,
  requestMediaType,
  nameFilterOf,
  resource,
  xmlAnswer,
  param,
  userOf,
  type RestRoutes,
} from './request-params.js';
import { copyObject, deleteObject } from './object-operations.js';
import { containerView } from './views.js';
import { fileListAnswer } from './listing-slices.js';
import { depthTwoContainerAnswer } from './depth-two-entity.js';

const CREATE_TYPES = [MEDIA.container, MEDIA.file, MEDIA.multipart];
/** The part name the interface document gives (row 4); clients also send Filedata or the file's name. */
const STRICT_PART_NAMES = ['file'];

/** Containers and their contents: create a container, a file-info or an upload; listing, rename, move, copy, delete. */
export function containersRouter(router: RestRoutes): void {
  resource(router, '/containers/:id', {
    GET: (req, res) => {
      const store = storeOf(res);
      const node = store.get(userOf(res), param(req, 'id'), 'container');
      if (node.parentId) markParent(res, node.parentId);
      // X-Cloud-Depth 2 inlines the children, unwrapped, inside the contents link (at most MAX_EXPANDED_ITEMS).
      if (depthOf(req) >= 2) return depthTwoContainerAnswer(store, req, res, node);
      return xmlAnswer(MEDIA.container, containerEntity(containerView(store, node), linksOf(res)));
    },
    PUT: async (req, res) => {
      const body = await entityOf(req, res);
      if (requestMediaType(req) !== MEDIA.container)
        throw unsupportedMediaType(requestMediaType(req), [MEDIA.container]);
      const info = parseContainerInfo(body);
      const parentId = parentIdFrom(info.parentHref);
      await storeOf(res).update(userOf(res), param(req, 'id'), { name: info.name, parentId });
      return NO_CONTENT;
    },
    POST: (req, res) => copyObject(req, res, 'container'),
    DELETE: (req, res) => deleteObject(req, res, 'container'),
  });

  resource(router, '/containers/:id/contents', {
    GET: (req, res) => {
      const store = storeOf(res);
      const members = store.listing(userOf(res), param(req, 'id'));
      return fileListAnswer(store, req, res, members, { ordered: true, filter: nameFilterOf(req) });
    },
    POST: createInContainer,
  });
}

/** POST to ContainerContents: the three accepted media types; anything else is 415, as the interface document says. */
async function createInContainer(req: Request, res: Response): Promise<Answer> {
  const store = storeOf(res);
  const user = userOf(res);
  const parentId = param(req, 'id');
  const type = requestMediaType(req);
  store.get(user, parentId, 'container');
  let node: NodeRecord;
  switch (type) {
    case MEDIA.container: {
      const info = parseContainerInfo(await entityOf(req, res));
      node = await store.createContainer(user, parentId, info.name ?? '');
      break;
    }
    case MEDIA.file: {
      const info = parseFileInfo(await entityOf(req, res));
      node = await store.createFile(user, parentId, {
        name: info.name ?? '',
        mimeType: info.mimeType,
        public: info.public,
      });
      break;
    }
    case MEDIA.multipart: {
      const strict = serviceOf(res).rules.strict;
      node = await receiveUpload(store, req, res, user, parentId, strict ? STRICT_PART_NAMES : undefined);
      break;
    }
    default:
      throw unsupportedMediaType(req.headers['content-type'], CREATE_TYPES);
  }
  return createdAnswer(linksOf(res).resource(node.kind, node.id));
}
