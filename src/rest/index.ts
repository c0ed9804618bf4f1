import type { Router } from 'express';
import { annotationsRouter } from './annotations.js';
import { collectionsRouter } from './collections.js';
import { containersRouter } from './containers.js';
import { entryRouter } from './entry.js';
import { filesRouter } from './files.js';
import { namespaceRouter } from './namespace.js';
import { tagsRouter } from './tags.js';
import type { RestRoutes } from './request-params.js';

/**
 * Everything under /v2, one module per resource, their routes added to the service's one router (every mock
 * shares it; each reads its mock's store per request, service-context.ts) under /v2: a router of their own
 * would cost every request a walk into it. Unknown addresses fall through to the service's 404.
 */
export function restRoutes(router: Router): void {
  const under = (path: string): string => `/v2${path}`;
  const v2: RestRoutes = { route: (path) => router.route(Array.isArray(path) ? path.map(under) : under(path)) };
  entryRouter(v2);
  // before the resources: a path under the namespace continues as the GET of the object it names
  namespaceRouter(v2);
  containersRouter(v2);
  filesRouter(v2);
  annotationsRouter(v2);
  tagsRouter(v2);
  collectionsRouter(v2);
}
