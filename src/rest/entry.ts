import { accountFields, cloudEntity, containerFields, recycleBinFields, tagListFields } from '../xml/entities.js';
import type { CloudLinkName } from '../xml/links.js';
import type { XmlNode } from '../xml/codec.js';
import { withLocations } from '../xml/cloud2.js';
import { MEDIA, depthOf, linksOf, resource, xmlAnswer, userOf, type RestRoutes } from './request-params.js';
import { storeOf } from '../http/service-context.js';
import { accountView, containerView } from './views.js';

/** The entry document's richer media type, which the service's own sync client asks for at login. */
export const CLOUD2 = 'application/vnd.csp.cloud2+xml';

/**
 * GET /v2 (and /v2/): the entry document with its eight links; X-Cloud-Depth 1 wraps each entity.
 * An Accept naming cloud2 gets that media type, with locations and namespaces added (xml/cloud2.ts).
 */
export function entryRouter(router: RestRoutes): void {
  resource(router, ['/', ''], {
    GET: (req, res) => {
      const store = storeOf(res);
      const user = userOf(res);
      const links = linksOf(res);
      const root = store.root(user);
      const hrefs = links.entry(root.id);
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
      const cloud = cloudEntity(hrefs, wrapped);
      if (!acceptsCloud2(req.headers.accept)) return xmlAnswer(MEDIA.cloud, cloud);
      res.vary('Accept');
      const hrefs2 = {
        rootContainer: hrefs.rootContainer,
        management: links.management(user),
        namespaces: links.namespaces,
        namespaceContainer: links.namespaceContainer,
      };
      return xmlAnswer(CLOUD2, withLocations(cloud, hrefs2, depthOf(req)));
    },
  });
}

/** True when one of the Accept header's media ranges is cloud2 itself, with a q above 0. */
export function acceptsCloud2(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((range) => {
    const [type, ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    if (type !== CLOUD2) return false;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}
