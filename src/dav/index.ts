import { Router } from 'express';
import type { CloudStore } from '../domain/cloud-store.js';
import { notFoundError } from '../http/errors.js';
import { sendContent } from '../http/send-content.js';
import { only, userOf } from '../rest/request-params.js';
import { davNames } from './paths.js';

/** Row 10 and rule 2: GET /dav/<container names>/<file name> returns the file's content. */
export function davRouter(store: CloudStore): Router {
  const router = Router();
  router
    .route('/{*path}')
    .get((req, res, next) => {
      const user = userOf(res);
      const node = store.resolvePath(user, davNames(req.path));
      if (!node) throw notFoundError(`nothing at /dav${req.path}`);
      if (node.kind === 'file') {
        store.touchAccessed(node);
        sendContent(req, res, next, node, store.blobs);
        return;
      }
      // A collection: its children's names, one a line (directories end with "/").
      const lines = store.children(user, node.id).map((c) => (c.kind === 'container' ? `${c.name}/` : c.name));
      res.type('text/plain; charset=utf-8').send(lines.join('\n') + (lines.length ? '\n' : ''));
    })
    .all(only('GET'));
  return router;
}
