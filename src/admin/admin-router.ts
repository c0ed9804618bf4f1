import express, { Router, type RequestHandler } from 'express';
import type { MockClock } from '../clock/mock-clock.js';
import type { CloudStore } from '../domain/cloud-store.js';
import { HttpError } from '../http/errors.js';
import { writeJournalHar } from '../har/journal-to-har.js';
import { SlicedAnswer } from '../http/sliced-answer.js';
import { requestOrigin } from '../http/request-origin.js';
import {
  isStatusClass,
  type JournalFilter,
  type RequestJournal,
  type RequestOutcome,
  type StatusClass,
} from '../http/journal.js';
import { countRequests } from '../http/journal-wait.js';
import { requestWaitHandler } from './request-wait.js';
import { listScenarios } from '../scenarios/catalog.js';
import { ScenarioError } from '../scenarios/scenario-error.js';
import type { ScenarioRuntime } from '../scenarios/scenario-runtime.js';
import type { ResolvedScenario, ScenarioDefinition } from '../scenarios/types.js';
import { adminTokenCheck } from './admin-guard.js';
import { postChanges } from './changes-route.js';
import type { SecondDevice } from '../device/second-device.js';
import { clockRoutes } from './clock-routes.js';
import { inspectorAssets } from './inspector-assets.js';
import { inspectorRouter } from './inspector-router.js';
import { deepJson } from './deep-json.js';
import { DEFAULT_INLINE_LIMIT, exportedFile, seedView } from './seed-view.js';
import { stateView } from './state-view.js';
import { noNestedTenants, tenantRoutes, type TenantDirectory } from './tenant-routes.js';

export interface AdminDeps {
  runtime: ScenarioRuntime;
  /** The mock's own reset (MockApp.reset): state, fault counters, journal and a replay's cursor, as in-process. */
  reset(): Promise<void>;
  journal: RequestJournal;
  store: CloudStore;
  /** When set, every admin request but the inspector's static page must carry it (Authorization: Bearer TOKEN or X-Admin-Token). */
  token: string | undefined;
  cwd: string;
  /** The second device (POST /changes). */
  device: SecondDevice;
  /** The mock's clock, which /__admin/clock shows and moves. */
  clock: MockClock;
  /** Our own public origin, for the links of a HAR export (default: the request's Host). */
  publicUrl?: string;
  /** A tenant's "/t/<name>" (its HAR links carry it); "" for the server's default mock. */
  mountPath: string;
  /** The server's tenants (/__admin/tenants), on the default mock of a served mock only. */
  tenants?: TenantDirectory;
}

function summary(scenario: ResolvedScenario): Record<string, unknown> {
  const { name, description, source, latency, recording } = scenario;
  return {
    name,
    description,
    source,
    faults: scenario.faults.length,
    latency: latency ?? null,
    network: scenario.network ?? null,
    recording: recording ?? null,
    seeded: !!scenario.seed,
  };
}

/** {"name": NAME|PATH} switches by name; any other object is an inline scenario. */
function scenarioSpec(body: unknown): string | ScenarioDefinition {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'send a JSON object: {"name": "NAME or PATH"} or an inline scenario');
  }
  const keys = Object.keys(body);
  const name = (body as { name?: unknown }).name;
  if (keys.length === 1 && typeof name === 'string') return name;
  return body as ScenarioDefinition;
}

const JSON_LIMIT = '5mb';

/** JSON bodies only (admin-guard refuses other types); a parse error never echoes the body. */
const jsonBody: RequestHandler = (req, res, next) => {
  express.json({ limit: JSON_LIMIT, type: 'application/json' })(req, res, (err?: unknown) => {
    // body-parser's documented error type for a body over the limit.
    if ((err as { type?: unknown } | undefined)?.type === 'entity.too.large')
      return next(new HttpError(413, `the body is larger than the ${JSON_LIMIT} the admin API takes`));
    if (err) return next(new HttpError(400, 'the body is not valid JSON'));
    next();
  });
};

function optionalInt(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value))
    throw new HttpError(400, `${name} must be a whole number, got ${JSON.stringify(value)}`);
  return Number(value);
}

function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new HttpError(400, `give ${name} once`);
  return value;
}

const OUTCOMES: readonly RequestOutcome[] = ['pending', 'answered', 'closed', 'reset', 'truncated', 'aborted'];

function optionalOutcome(value: unknown): RequestOutcome | undefined {
  const text = optionalString(value, 'outcome');
  if (text === undefined || (OUTCOMES as readonly string[]).includes(text)) return text as RequestOutcome | undefined;
  throw new HttpError(400, `outcome must be one of ${OUTCOMES.join(', ')}, got "${text}"`);
}

/** A status (404) or a class of them (4xx). */
function optionalStatus(value: unknown): number | StatusClass | undefined {
  if (typeof value === 'string' && isStatusClass(value)) return value;
  if (value === undefined || (typeof value === 'string' && /^\d+$/.test(value))) return optionalInt(value, 'status');
  throw new HttpError(400, `status must be a status (404) or a class of them (4xx), got ${JSON.stringify(value)}`);
}

/** ?method=GET&path=/v2/**&status=404&since=ISO&after=SEQ&limit=N&user=NAME&fault=RULE&outcome=reset */
function journalFilterOf(query: Record<string, unknown>): JournalFilter {
  const filter: JournalFilter = {
    method: optionalString(query['method'], 'method'),
    path: optionalString(query['path'], 'path'),
    status: optionalStatus(query['status']),
    since: optionalString(query['since'], 'since'),
    after: optionalInt(query['after'], 'after'),
    limit: optionalInt(query['limit'], 'limit'),
    user: optionalString(query['user'], 'user'),
    fault: optionalString(query['fault'], 'fault'),
    outcome: optionalOutcome(query['outcome']),
  };
  if (filter.since !== undefined && Number.isNaN(Date.parse(filter.since)))
    throw new HttpError(400, `since must be an ISO time, got "${filter.since}"`);
  return filter;
}

/**
 * The admin HTTP API under /__admin: the inspector, switch, reset, journal, state. Not behind the
 * service's auth; app.ts mounts adminGuard (same origin, JSON bodies) in front of it.
 */
export function adminRouter(deps: AdminDeps): Router {
  const router = Router();
  // The inspector's page at /__admin/ holds no state, so it loads without the token and asks for it
  // (the Host, same-origin and JSON checks of adminGuard still apply to it).
  router.use(inspectorAssets());
  router.use(adminTokenCheck(deps.token));
  router.use('/inspector', inspectorRouter(deps));

  router.get('/scenario', (_req, res) => {
    res.json(summary(deps.runtime.scenario));
  });
  router.put('/scenario', jsonBody, async (req, res) => {
    try {
      res.json(summary(await deps.runtime.use(scenarioSpec(req.body), 'http')));
    } catch (err) {
      if (err instanceof ScenarioError) throw new HttpError(400, err.message);
      throw err;
    }
  });
  router.use(
    '/clock',
    clockRoutes(deps.clock, () => deps.runtime.scenario.clock, jsonBody),
  );
  router.get('/scenarios', (_req, res) => {
    res.json({ scenarios: listScenarios(deps.cwd) });
  });
  router.post('/reset', async (_req, res) => {
    await deps.reset();
    res.status(204).end();
  });
  router.get('/requests', async (req, res) => {
    const { format, ...filters } = req.query;
    const requests = deps.journal.entries(journalFilterOf(filters));
    if (format === 'har') {
      const answer = new SlicedAnswer(res, 200, { 'Content-Type': 'application/json; charset=utf-8' });
      return writeJournalHar(answer, requests, requestOrigin(req, deps.publicUrl, deps.mountPath));
    }
    if (format !== undefined && format !== 'json')
      throw new HttpError(400, 'format must be "json" (the default) or "har"');
    res.json({ requests });
  });
  const waitForRequest = requestWaitHandler(deps.journal);
  router.get('/requests/wait', (req, res) => waitForRequest(req, res, journalFilterOf(req.query)));
  router.get('/requests/count', (req, res) => {
    res.json({ count: countRequests(deps.journal, journalFilterOf(req.query)) });
  });
  router.delete('/requests', (_req, res) => {
    deps.journal.clear();
    res.status(204).end();
  });
  router.post('/changes', jsonBody, postChanges(deps.device));
  router.get('/state', async (req, res) => {
    const format = req.query['format'] ?? 'view';
    if (format === 'seed') {
      const limit = optionalInt(req.query['inlineLimit'], 'inlineLimit') ?? DEFAULT_INLINE_LIMIT;
      res.type('application/json').send(deepJson(await seedView(deps.store, deps.runtime.scenario.name, limit)));
      return;
    }
    if (format !== 'view') throw new HttpError(400, 'format must be "view" (the default) or "seed"');
    // Trees may be thousands of levels deep: res.json (JSON.stringify) would overflow the stack.
    res.type('application/json').send(deepJson(stateView(deps.store, deps.runtime.scenario.name)));
  });
  // The bytes of one live file, for a seed export's fixture files.
  router.get('/content/:id', (req, res) => {
    const node = exportedFile(deps.store, req.params.id);
    if (!node) throw new HttpError(404, `no live file with id ${req.params.id}`);
    res.setHeader('Content-Type', 'application/octet-stream');
    res.setHeader('Content-Length', String(node.bytes));
    if (!node.blobId) return void res.end();
    deps.store.blobs.read(node.blobId).pipe(res);
  });
  if (deps.tenants) router.use('/tenants', tenantRoutes(deps.tenants, jsonBody, deps.publicUrl));
  else if (deps.mountPath) router.use('/tenants', noNestedTenants);
  router.use((req, _res, next) => next(new HttpError(404, `no admin resource at /__admin${req.path}`)));
  return router;
}
