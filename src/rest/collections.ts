import { Router } from 'express';
import { storeOf } from '../http/service-context.js';
import { accountEntity, emptyCollectionEntity, recycleBinEntity } from '../xml/entities.js';
import { MEDIA, linksOf, only, pageOf, param, sendXml, userOf } from './request-params.js';
import { accountView } from './views.js';

/** Account, the recycle bin, and the collections the document only names (inferred: empty). */
export function collectionsRouter(router: Router = Router()): Router {
  router
    .route('/account')
    .get((_req, res) => sendXml(res, MEDIA.account, accountEntity(accountView(storeOf(res), userOf(res)))))
    .all(only('GET'));

  for (const name of ['contacts', 'shares', 'projects', 'metacontainers']) {
    router
      .route(`/${name}`)
      .get((_req, res) => sendXml(res, MEDIA.other(name), emptyCollectionEntity(name)))
      .all(only('GET'));
  }

  router
    .route('/recyclebin')
    .get((req, res) => {
      const page = pageOf(req, storeOf(res).recycleBin.list(userOf(res)));
      sendXml(res, MEDIA.other('recyclebin'), recycleBinEntity(page, linksOf(res)));
    })
    .all(only('GET'));

  router
    .route('/recyclebin/:id')
    .get((req, res) => {
      const node = storeOf(res).recycleBin.item(userOf(res), param(req, 'id'));
      sendXml(res, MEDIA.other('recyclebin'), recycleBinEntity({ items: [node], start: 0, total: 1 }, linksOf(res)));
    })
    .post(async (req, res) => {
      await storeOf(res).recycleBin.restore(userOf(res), param(req, 'id'));
      res.status(204).end();
    })
    .delete(async (req, res) => {
      await storeOf(res).recycleBin.purge(userOf(res), param(req, 'id'));
      res.status(204).end();
    })
    .all(only('GET', 'POST', 'DELETE'));

  return router;
}
