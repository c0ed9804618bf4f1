import { Router } from 'express';
import type { Feature, MockCore } from '../feature.js';
import { HttpError } from '../http/errors.js';
import { listScenarios } from '../scenarios/catalog.js';
import { adminTokenCheck } from './admin-guard.js';
import { controlRoutes, jsonBody } from './control-routes.js';
import { inspectorAssets } from './inspector-assets.js';
import { inspectorRouter } from './inspector-router.js';
import { deepJson } from './deep-json.js';
import { queryInt } from './journal-filter.js';
import { DEFAULT_INLINE_LIMIT, exportedFile, seedView } from './seed-view.js';
import { stateView } from './state-view.js';

export interface AdminDeps {
  /** The mock the routes read and change. */
  mock: MockCore;
  /** Its features: their routes, then their controls. */
  features: readonly Feature[];
}

/**
 * The admin HTTP API under /__admin: the inspector, the state, and each feature's routes and controls (switch,
 * reset, journal, clock, changes...). Not behind the service's auth; app.ts mounts adminGuard (same origin,
 * JSON bodies) in front of it.
 */
export function adminRouter({ mock, features }: AdminDeps): Router {
  const { store, options } = mock;
  const router = Router();
  // The inspector's page at /__admin/ holds no state, so it loads without the token and asks for it
  // (the Host, same-origin and JSON checks of adminGuard still apply to it).
  router.use(inspectorAssets());
  router.use(adminTokenCheck(options.adminToken));
  router.use(
    '/inspector',
    inspectorRouter({ runtime: mock.scenarios, journal: mock.journal, store, mountPath: mock.mountPath }),
  );
  router.get('/scenarios', (_req, res) => {
    res.json({ scenarios: listScenarios(options.baseDir) });
  });
  router.get('/state', async (req, res) => {
    const format = req.query['format'] ?? 'view';
    const scenario = mock.scenarios.scenario.name;
    if (format === 'seed') {
      const limit = queryInt(req.query['inlineLimit'], 'inlineLimit') ?? DEFAULT_INLINE_LIMIT;
      res.type('application/json').send(deepJson(await seedView(store, scenario, limit)));
      return;
    }
    if (format !== 'view') throw new HttpError(400, 'format must be "view" (the default) or "seed"');
    // Trees may be thousands of levels deep: res.json (JSON.stringify) would overflow the stack.
    res.type('application/json').send(deepJson(stateView(store, scenario)));
  });
  // The bytes of one live file, for a seed export's fixture files.
  router.get('/content/:id', (req, res) => {
    const node = exportedFile(store, req.params.id);
    if (!node) throw new HttpError(404, `no live file with id ${req.params.id}`);
    res.setHeader('Content-Type', 'application/octet-stream');
    res.setHeader('Content-Length', String(node.bytes));
    if (!node.blobId) return void res.end();
    store.blobs.read(node.blobId).pipe(res);
  });
  for (const feature of features) {
    const routes = feature.routes?.(mock, jsonBody);
    if (routes) router.use(routes);
  }
  router.use(
    controlRoutes(
      features.flatMap((f) => f.controls ?? []),
      mock,
    ),
  );
  router.use((req, _res, next) => next(new HttpError(404, `no admin resource at /__admin${req.path}`)));
  return router;
}
