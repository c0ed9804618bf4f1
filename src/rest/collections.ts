import { storeOf } from '../http/service-context.js';
import { accountEntity, emptyCollectionEntity, recycleBinEntity } from '../xml/entities.js';
import {
  MEDIA,
  NO_CONTENT,
  linksOf,
  pageOf,
  param,
  resource,
  xmlAnswer,
  userOf,
  type RestRoutes,
} from './request-params.js';
import { accountView } from './views.js';

/** Account, the recycle bin, and the collections the document only names (inferred: empty). */
export function collectionsRouter(router: RestRoutes): void {
  resource(router, '/account', {
    GET: (_req, res) => xmlAnswer(MEDIA.account, accountEntity(accountView(storeOf(res), userOf(res)))),
  });

  for (const name of ['contacts', 'shares', 'projects', 'metacontainers'])
    resource(router, `/${name}`, { GET: () => xmlAnswer(MEDIA.other(name), emptyCollectionEntity(name)) });

  resource(router, '/recyclebin', {
    GET: (req, res) => {
      const page = pageOf(req, storeOf(res).recycleBin.list(userOf(res)));
      return xmlAnswer(MEDIA.other('recyclebin'), recycleBinEntity(page, linksOf(res)));
    },
  });

  resource(router, '/recyclebin/:id', {
    GET: (req, res) => {
      const node = storeOf(res).recycleBin.item(userOf(res), param(req, 'id'));
      return xmlAnswer(
        MEDIA.other('recyclebin'),
        recycleBinEntity({ items: [node], start: 0, total: 1 }, linksOf(res)),
      );
    },
    POST: async (req, res) => {
      await storeOf(res).recycleBin.restore(userOf(res), param(req, 'id'));
      return NO_CONTENT;
    },
    DELETE: async (req, res) => {
      await storeOf(res).recycleBin.purge(userOf(res), param(req, 'id'));
      return NO_CONTENT;
    },
  });
}
