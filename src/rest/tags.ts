import { Router } from 'express';
import { storeOf } from '../http/service-context.js';
import { tagEntity, tagListEntity } from '../xml/entities.js';
import { MEDIA, linksOf, only, pageOf, sendXml, userOf } from './request-params.js';
import { sendFileList } from './listing-slices.js';
import { ChildListing } from '../domain/child-listing.js';
import { notFound } from '../domain/errors.js';

/**
 * GET /v2/tags, /v2/tags/<name> and /v2/tags/<name>/objects: the tags in use, one tag, and the objects
 * carrying it (answered, as the service's announced fix of its 500 promises).
 */
export function tagsRouter(router: Router = Router()): Router {
  router
    .route('/tags')
    .get((req, res) =>
      sendXml(
        res,
        MEDIA.tagList,
        tagListEntity(pageOf(req, storeOf(res).annotations.tagsInUse(userOf(res))), linksOf(res)),
      ),
    )
    .all(only('GET'));

  router
    .route('/tags/:name')
    .get((req, res) => {
      if (!storeOf(res).annotations.tagsInUse(userOf(res)).includes(req.params.name)) throw notFound('tag');
      sendXml(res, MEDIA.tag, tagEntity(req.params.name, linksOf(res)));
    })
    .all(only('GET'));

  // Inferred shape: a file-list of the tagged objects, paged like a container's contents.
  router
    .route('/tags/:name/objects')
    .get(async (req, res) => {
      const store = storeOf(res);
      const tagged = store.annotations.taggedWith(userOf(res), req.params.name);
      await sendFileList(store, req, res, ChildListing.inOrder(tagged), { ordered: false });
    })
    .all(only('GET'));

  return router;
}
