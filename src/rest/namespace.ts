import { storeOf } from '../http/service-context.js';
import { notFound } from '../domain/errors.js';
import { davNames } from '../dav/paths.js';
import { namespacesEntity } from '../xml/cloud2.js';
import { MEDIA, linksOf, only, resource, xmlAnswer, userOf, type RestRoutes } from './request-params.js';

const PREFIX = '/v2/namespace';
const ENCODED_SLASH = /%2f/gi;

/**
 * The namespace the sync client reads objects by path from (GET `<namespace container>/<path>`).
 * A path is resolved for the logged-in user (names percent-decoded as WebDAV decodes them), then the
 * request continues as a GET of the object's own address: the same entity, ETag, conditional answers
 * and depth handling, from the same routes. Only reads: writes go to the object's own address.
 * Here alone `%2F` is a separator too: the sync client URL-encodes a whole event path, `/` included,
 * and the service accepted it (a name cannot hold `/`, so nothing else could be meant).
 */
export function namespaceRouter(router: RestRoutes): void {
  resource(router, '/namespaces', {
    GET: (_req, res) => xmlAnswer(MEDIA.other('namespaces'), namespacesEntity(linksOf(res).namespaceContainer)),
  });
  router.route(['/namespace', '/namespace/*path']).all((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return only('GET')(req, res, next);
    const store = storeOf(res);
    const names = davNames(req.path.slice(PREFIX.length).replace(ENCODED_SLASH, '/'));
    const node = store.resolvePath(userOf(res), names);
    if (!node || !store.tree.isLive(node))
      throw notFound('object', `nothing at ${names.join('/') || '/'} in the namespace`);
    const query = req.url.indexOf('?');
    req.url = `/v2/${node.kind === 'container' ? 'containers' : 'files'}/${node.id}${query === -1 ? '' : req.url.slice(query)}`;
    next();
  });
}
