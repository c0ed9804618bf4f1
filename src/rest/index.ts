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
import { DOCUMENTED, type RestRules } from './deviations.js';

/**
 * Everything under /v2, one module per resource, their routes in one router (a router per resource
 * cost every request a walk through each one before its own); unknown addresses are 404.
 */
export function restRouter(store: CloudStore, rules: RestRules = DOCUMENTED): Router {
  const router = Router();
  entryRouter(store, router);
  // before the resources: a path under the namespace continues as the GET of the object it names
  namespaceRouter(store, router);
  containersRouter(store, router, rules);
  filesRouter(store, router, rules);
  annotationsRouter(store, router);
  tagsRouter(store, router);
  collectionsRouter(store, router);
  router.use((req, _res, next) => next(notFound('resource', `no resource at /v2${req.path}`)));
  return router;
}
