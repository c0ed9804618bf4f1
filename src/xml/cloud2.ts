import type { XmlNode } from './codec.js';
import { link, rootElement } from './entities.js';

/**
 * The cloud2 view of the entry document, which the service's own sync client asks for: the cloud entity
 * plus `locations` (one location with its root container and its CDMI management address) and `namespaces`
 * (one namespace, whose container addresses the user's tree by path). Shapes inferred from the XPaths the
 * client reads: /cloud/locations/location/management and /cloud/namespaces/namespaces/namespace/container.
 */
export interface Cloud2Hrefs {
  rootContainer: string;
  management: string;
  namespaces: string;
  namespaceContainer: string;
}

/** The body of a `namespaces` entity: one namespace and its container link. */
function namespacesFields(namespaceContainer: string): XmlNode {
  return { namespace: { name: 'default', container: link(namespaceContainer) } };
}

export const namespacesEntity = (namespaceContainer: string): XmlNode =>
  rootElement('namespaces', namespacesFields(namespaceContainer));

/** Adds locations and namespaces after the eight links; `namespaces` wraps its entity at depth >= 1, like the others. */
export function withLocations(cloud: XmlNode, hrefs: Cloud2Hrefs, depth: number): XmlNode {
  const body = cloud['cloud'] as XmlNode;
  body['locations'] = {
    location: { name: 'default', rootContainer: link(hrefs.rootContainer), management: link(hrefs.management) },
  };
  body['namespaces'] = link(
    hrefs.namespaces,
    depth >= 1 ? { namespaces: namespacesFields(hrefs.namespaceContainer) } : {},
  );
  return cloud;
}
