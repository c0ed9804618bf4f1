import { Router, type Request, type Response } from 'express';
import type { CloudStore } from '../domain/cloud-store.js';
import { serviceOf, storeOf } from '../http/service-context.js';
import type { NodeRecord } from '../domain/model.js';
import { containerEntity } from '../xml/entities.js';
import { parseContainerInfo, parseFileInfo } from '../xml/requests.js';
import { unsupportedMediaType } from '../http/errors.js';
import { receiveUpload } from './multipart-upload.js';
import type { RestRules } from './deviations.js';
import { markParent } from '../http/journal-marks.js';
import {
  MEDIA,
  bodyBuffer,
  depthOf,
  parentIdFrom,
  linksOf,
  requestMediaType,
  nameFilterOf,
  only,
  readEntityBody,
  sendCreated,
  sendXml,
  param,
  userOf,
} from './request-params.js';
import { copyObject, deleteObject } from './object-operations.js';
import { containerView } from './views.js';
import { sendFileList } from './listing-slices.js';
import { sendDepthTwoContainer } from './depth-two-entity.js';

const CREATE_TYPES = [MEDIA.container, MEDIA.file, MEDIA.multipart];
/** The part name the interface document gives (row 4); clients also send Filedata or the file's name. */
const STRICT_PART_NAMES = ['file'];

/** Containers and their contents: create a container, a file-info or an upload; listing, rename, move, copy, delete. */
export function containersRouter(router: Router = Router()): Router {
  router
    .route('/containers/:id')
    .get(async (req, res) => {
      const store = storeOf(res);
      const user = userOf(res);
      const node = store.get(user, param(req, 'id'), 'container');
      if (node.parentId) markParent(res, node.parentId);
      // X-Cloud-Depth 2 inlines the children, unwrapped, inside the contents link (at most MAX_EXPANDED_ITEMS).
      if (depthOf(req) >= 2) return sendDepthTwoContainer(store, req, res, node);
      sendXml(res, MEDIA.container, containerEntity(containerView(store, node), linksOf(res)));
    })
    .put(readEntityBody, async (req, res) => {
      if (requestMediaType(req) !== MEDIA.container)
        throw unsupportedMediaType(requestMediaType(req), [MEDIA.container]);
      const info = parseContainerInfo(bodyBuffer(req));
      const parentId = parentIdFrom(info.parentHref);
      await storeOf(res).update(userOf(res), param(req, 'id'), { name: info.name, parentId });
      res.status(204).end();
    })
    .post(async (req, res) => copyObject(storeOf(res), req, res, 'container'))
    .delete(async (req, res) => deleteObject(storeOf(res), req, res, 'container'))
    .all(only('GET', 'PUT', 'POST', 'DELETE'));

  router
    .route('/containers/:id/contents')
    .get(async (req, res) => {
      const store = storeOf(res);
      const members = store.listing(userOf(res), param(req, 'id'));
      await sendFileList(store, req, res, members, { ordered: true, filter: nameFilterOf(req) });
    })
    .post(async (req, res) => createInContainer(storeOf(res), req, res, serviceOf(res).rules))
    .all(only('GET', 'POST'));

  return router;
}

/** POST to ContainerContents: the three accepted media types; anything else is 415, as the interface document says. */
async function createInContainer(store: CloudStore, req: Request, res: Response, rules: RestRules): Promise<void> {
  const user = userOf(res);
  const parentId = param(req, 'id');
  const type = requestMediaType(req);
  store.get(user, parentId, 'container');
  const links = linksOf(res);
  let node: NodeRecord;
  switch (type) {
    case MEDIA.container: {
      await runMiddleware(req, res);
      const info = parseContainerInfo(bodyBuffer(req));
      node = await store.createContainer(user, parentId, info.name ?? '');
      break;
    }
    case MEDIA.file: {
      await runMiddleware(req, res);
      const info = parseFileInfo(bodyBuffer(req));
      node = await store.createFile(user, parentId, {
        name: info.name ?? '',
        mimeType: info.mimeType,
        public: info.public,
      });
      break;
    }
    case MEDIA.multipart:
      node = await receiveUpload(store, req, res, user, parentId, rules.strict ? STRICT_PART_NAMES : undefined);
      break;
    default:
      throw unsupportedMediaType(req.headers['content-type'], CREATE_TYPES);
  }
  sendCreated(res, links.resource(node.kind, node.id));
}

function runMiddleware(req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => readEntityBody(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
}
