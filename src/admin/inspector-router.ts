import { Router, type Request } from 'express';
import type { CloudStore } from '../domain/cloud-store.js';
import { HttpError } from '../http/errors.js';
import type { RequestJournal } from '../http/journal.js';
import { sendAnswer } from '../http/answer.js';
import { contentAnswer } from '../http/content-answer.js';
import type { ScenarioRuntime } from '../scenarios/scenario-runtime.js';
import { inspectorStream } from './inspector-events.js';
import { fileForContent, inspectChildren, inspectRecycleBin, inspectUsers } from './inspector-files.js';
import { inspectScenario } from './inspector-scenario.js';
import { queryInt } from './journal-filter.js';

export interface InspectorDeps {
  runtime: ScenarioRuntime;
  journal: RequestJournal;
  store: CloudStore;
  /** A tenant's "/t/<name>" ("" for the default mock): the addresses the page shows carry it. */
  mountPath: string;
}

function queryParam(req: Request, name: string): string {
  const value = req.query[name];
  if (typeof value !== 'string' || value === '') throw new HttpError(400, `query parameter "${name}" is required`);
  return value;
}

/** The inspector page's data under /__admin/inspector: read-only views; switching and reset use the admin API. */
export function inspectorRouter(deps: InspectorDeps): Router {
  const router = Router();
  router.get('/events', inspectorStream(deps.journal, deps.runtime));
  router.get('/scenario', (_req, res) => {
    res.json(inspectScenario(deps.runtime));
  });
  router.get('/users', (_req, res) => {
    res.json({ users: inspectUsers(deps.store) });
  });
  router.get('/children', async (req, res) => {
    res.json(
      await inspectChildren(
        deps.store,
        queryParam(req, 'user'),
        queryParam(req, 'id'),
        queryInt(req.query['start'], 'start') ?? 0,
        deps.mountPath,
      ),
    );
  });
  router.get('/recycle-bin', (req, res) => {
    res.json(inspectRecycleBin(deps.store, queryParam(req, 'user'), deps.mountPath));
  });
  router.get('/content', async (req, res) => {
    const node = fileForContent(deps.store, queryParam(req, 'user'), queryParam(req, 'id'));
    // Stored bytes are the clients' data: never rendered as a document of this origin.
    res.setHeader('Content-Security-Policy', 'sandbox');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(node.name)}`);
    return sendAnswer(res, await contentAnswer(req, node, deps.store.blobs));
  });
  return router;
}
