import { storeOf } from '../http/service-context.js';
import { tagEntity, tagListEntity } from '../xml/entities.js';
import { MEDIA, linksOf, pageOf, resource, xmlAnswer, userOf, param, type RestRoutes } from './request-params.js';
import { fileListAnswer } from './listing-slices.js';
import { ChildListing } from '../domain/child-listing.js';
import { notFound } from '../domain/errors.js';

/**
 * GET /v2/tags, /v2/tags/<name> and /v2/tags/<name>/objects: the tags in use, one tag, and the objects
 * carrying it (answered, as the service's announced fix of its 500 promises).
 */
export function tagsRouter(router: RestRoutes): void {
  resource(router, '/tags', {
    GET: (req, res) =>
      xmlAnswer(
        MEDIA.tagList,
        tagListEntity(pageOf(req, storeOf(res).annotations.tagsInUse(userOf(res))), linksOf(res)),
      ),
  });

  resource(router, '/tags/:name', {
    GET: (req, res) => {
      if (!storeOf(res).annotations.tagsInUse(userOf(res)).includes(param(req, 'name'))) throw notFound('tag');
      return xmlAnswer(MEDIA.tag, tagEntity(param(req, 'name'), linksOf(res)));
    },
  });

  // Inferred shape: a file-list of the tagged objects, paged like a container's contents.
  resource(router, '/tags/:name/objects', {
    GET: (req, res) => {
      const store = storeOf(res);
      const tagged = store.annotations.taggedWith(userOf(res), param(req, 'name'));
      return fileListAnswer(store, req, res, ChildListing.inOrder(tagged), { ordered: false });
    },
  });
}
