import { Router } from 'express';
import type { CloudStore } from '../domain/cloud-store.js';
import { annotationsRouter } from './annotations.js';
import { collectionsRouter } from './collections.js';
import { containersRouter } from './containers.js';
import { entryRouter } from './entry.js';
import { filesRouter } from './files.js';
import { namespaceRouter } from './namespace.js';
import { tagsRouter } from './tags.js';
import { notFound } from '../domain/errors.js';

/** Everything under /v2, one router per resource; unknown addresses are 404. */
export function restRouter(store: CloudStore): Router {
  const router = Router();
  router.use(entryRouter(store));
  // before the resources: a path under the namespace continues as the GET of the object it names
  router.use(namespaceRouter(store));
  router.use(containersRouter(store));
  router.use(filesRouter(store));
  router.use(annotationsRouter(store));
  router.use(tagsRouter(store));
  router.use(collectionsRouter(store));
  router.use((req, _res, next) => next(notFound('resource', `no resource at /v2${req.path}`)));
  return router;
}
