import { Router } from 'express';
import type { CloudStore } from '../domain/cloud-store.js';
import {
  accountFields,
  cloudEntity,
  containerFields,
  recycleBinFields,
  tagListFields,
  type CloudLinkName,
} from '../xml/entities.js';
import type { XmlNode } from '../xml/codec.js';
import { MEDIA, depthOf, linksOf, only, sendXml, userOf } from './request-params.js';
import { accountView, containerView } from './views.js';

/** GET /v2 (and /v2/): the entry document with its eight links; X-Cloud-Depth 1 wraps each entity. */
export function entryRouter(store: CloudStore, router: Router = Router()): Router {
  router
    .route(['/', ''])
    .get((req, res) => {
      const user = userOf(res);
      const links = linksOf(res);
      const root = store.root(user);
      const hrefs: Record<CloudLinkName, string> = {
        rootContainer: links.container(root.id),
        contacts: links.collection('contacts'),
        shares: links.collection('shares'),
        projects: links.collection('projects'),
        metacontainers: links.collection('metacontainers'),
        account: links.collection('account'),
        tags: links.collection('tags'),
        recyclebin: links.collection('recyclebin'),
      };
      let wrapped: Record<CloudLinkName, XmlNode> | undefined;
      if (depthOf(req) >= 1) {
        const empty = (name: string): XmlNode => ({ [name]: { '@_count': 0, '@_start': 0, '@_total': 0 } });
        const tags = store.annotations.tagsInUse(user);
        const recycled = store.recycleBin.list(user);
        wrapped = {
          rootContainer: { container: containerFields(containerView(store, root), links) },
          contacts: empty('contacts'),
          shares: empty('shares'),
          projects: empty('projects'),
          metacontainers: empty('metacontainers'),
          account: { 'account-info': accountFields(accountView(store, user)) },
          tags: { tags: tagListFields({ items: tags, start: 0, total: tags.length }, links) },
          recyclebin: { recyclebin: recycleBinFields({ items: recycled, start: 0, total: recycled.length }, links) },
        };
      }
      sendXml(res, MEDIA.cloud, cloudEntity(hrefs, wrapped));
    })
    .all(only('GET'));
  return router;
}
