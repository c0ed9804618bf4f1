import { Router } from 'express';
import { annotationsRouter } from './annotations.js';
import { collectionsRouter } from './collections.js';
import { containersRouter } from './containers.js';
import { entryRouter } from './entry.js';
import { filesRouter } from './files.js';
import { namespaceRouter } from './namespace.js';
import { tagsRouter } from './tags.js';
import { notFound } from '../domain/errors.js';

/**
 * Everything under /v2, one module per resource, their routes in one router that
 * every mock shares (each reads its mock's store per request, service-context.ts) (a router per resource
 * cost every request a walk through each one before its own); unknown addresses are 404.
 */
export function restRouter(): Router {
  const router = Router();
  entryRouter(router);
  // before the resources: a path under the namespace continues as the GET of the object it names
  namespaceRouter(router);
  containersRouter(router);
  filesRouter(router);
  annotationsRouter(router);
  tagsRouter(router);
  collectionsRouter(router);
  router.use((req, _res, next) => next(notFound('resource', `no resource at /v2${req.path}`)));
  return router;
}
