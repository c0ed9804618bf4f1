import express, { type Express } from 'express';
import { adminGuard } from './admin/admin-guard.js';
import { adminRouter } from './admin/admin-router.js';
import type { CloudStore } from './domain/cloud-store.js';
import { davRouter, sendOptions } from './dav/index.js';
import { basicAuth } from './http/auth.js';
import { clientSpecification } from './http/client-spec.js';
import { errorMiddleware } from './http/error-middleware.js';
import { hostCheck } from './http/host-check.js';
import { RequestJournal, type JournalEntry, type JournalFilter } from './http/journal.js';
import { requestLog } from './http/request-log.js';
import { openStore } from './mock-state.js';
import { resolveOptions, type MockOptions, type ResolvedOptions } from './options.js';
import { dispatchMode, type ModeDispatch } from './mode.js';
import { scenarioReplayFactory } from './replay/scenario-replay.js';
import { restRouter } from './rest/index.js';
import { faultMiddleware, replayStep } from './scenarios/fault-middleware.js';
import { loadScenario } from './scenarios/load.js';
import { ScenarioRuntime } from './scenarios/scenario-runtime.js';
import { seedPlanOf } from './scenarios/seed-tree.js';
import type { ResolvedScenario, ScenarioDefinition } from './scenarios/types.js';
import { Links } from './xml/links.js';
import { requestOrigin } from './http/request-origin.js';
import { notFound } from './domain/errors.js';

/** An assembled mock that does not listen: hand `app` to supertest or to http.createServer. */
export interface MockApp {
  app: Express;
  store: CloudStore;
  options: ResolvedOptions;
  /** The active scenario (faults, latency, seed, recording). */
  readonly scenario: ResolvedScenario;
  /** Switches scenario atomically (a name, a path or an inline scenario); a scenario with a seed replaces the state. */
  useScenario(scenario: string | ScenarioDefinition): Promise<ResolvedScenario>;
  /** Re-reads the active scenario's file: faults, latency and recording apply at once, the state is untouched. */
  reloadScenario(): Promise<{ scenario: ResolvedScenario; seedChanged: boolean }>;
  /** State back to the active scenario's seed; fault counters and the request journal cleared. */
  reset(): Promise<void>;
  /** The request journal itself (subscribe() hears each completed request). */
  journal: RequestJournal;
  /** The request journal, oldest first, credentials removed; a filter picks method, path glob, status, since. */
  requests(filter?: JournalFilter): JournalEntry[];
  /** Releases the store (and its temp blob directory in memory mode). */
  close(): Promise<void>;
  /** Record mode: called for requests with Expect: 100-continue, whose 100 the upstream decides. */
  onCheckContinue?: ModeDispatch['onCheckContinue'];
}

/** Builds the express app in request order, one step a line. Never listens. */
export async function createApp(options: MockOptions = {}): Promise<MockApp> {
  const resolved = resolveOptions(options);
  const cwd = resolved.baseDir;
  const initial = await loadScenario(resolved.scenario, cwd);
  const store = await openStore(resolved, seedPlanOf(initial, resolved));
  const journal = new RequestJournal({
    size: resolved.journalSize,
    bodies: resolved.journalBodies,
    redact: resolved.mode.kind === 'record' ? (resolved.mode.redact ?? []) : [],
  });
  const replayHandler =
    resolved.replayHandler ?? scenarioReplayFactory({ cwd, publicUrl: resolved.publicUrl, log: resolved.log });
  const scenarios = await runtimeOrRelease(store, () =>
    ScenarioRuntime.create(initial, { store, options: resolved, journal, replayHandler, cwd }),
  );

  // The emulator: the service itself, over the one store.
  const emulator = express();
  emulator.disable('x-powered-by');
  emulator.set('etag', 'strong');
  // Paths are case-sensitive on the service: /V2 is not /v2.
  emulator.set('case sensitive routing', true);
  // E1. absolute links from --public-url or the request's Host
  emulator.use((req, res, next) => {
    res.locals.links = new Links(requestOrigin(req, resolved.publicUrl));
    next();
  });
  // E2. the REST interface: Basic auth (the active scenario's users), X-Client-Specification, one router per resource
  const auth = basicAuth(() => scenarios.users());
  emulator.use('/v2', auth, clientSpecification(resolved.strict, resolved.log), restRouter(store));
  // E3. the WebDAV view over the same store, same credentials; OPTIONS / announces it to clients that probe the root
  emulator.use('/dav', auth, davRouter(store));
  emulator.options('/', (_req, res) => sendOptions(res));
  // E4. anything else is 404; every error becomes one text/plain answer
  emulator.use((req, _res, next) => next(notFound('resource', `no resource at ${req.path}`)));
  emulator.use(errorMiddleware(resolved.log));

  const mode = await dispatchMode(resolved.mode, {
    emulator,
    store,
    publicUrl: resolved.publicUrl,
    log: resolved.log,
    baseDir: cwd,
  });
  const app = express();
  app.disable('x-powered-by');
  // 1. one log line per request (method, path, status, time, user, fault and outcome; never credentials or query),
  //    then only our own Host names, on every surface (a DNS-rebinding page could otherwise read /dav with demo:demo)
  //    (the logger only when lines go somewhere: it costs every request a listener and a format)
  if (options.log) app.use(requestLog(resolved.log, { format: resolved.logFormat, verbose: resolved.verbose }));
  app.use(hostCheck({ allowedHosts: resolved.allowedHosts, publicUrl: resolved.publicUrl }));
  // 2. the admin API (inspector, switch, reset, journal, state), no faults, not journaled; everything
  //    under /__admin passes the guard first (same origin, JSON bodies), then its optional token
  app.use('/__admin', adminGuard({ publicUrl: resolved.publicUrl }));
  app.use('/__admin', adminRouter({ runtime: scenarios, journal, store, token: resolved.adminToken, cwd }));
  // 3. the request journal (credentials removed), then admission under the active scenario (atomic switches)
  app.use(journal.middleware(), scenarios.admit());
  // 4. global latency and the first fault rule that fires, before auth (expired credentials is a fault)
  app.use(faultMiddleware(scenarios.delays));
  // 5. a scenario that names a recording: its replayer answers here
  app.use(replayStep());
  // 6. the one dispatch point of the modes: emulate -> the emulator; record -> the recording proxy;
  //    replay -> the recording (misses to the emulator or the upstream as configured)
  app.use(mode.handler);
  app.use(errorMiddleware(resolved.log));

  return {
    app,
    store,
    options: resolved,
    get scenario() {
      return scenarios.scenario;
    },
    useScenario: (scenario) => scenarios.use(scenario),
    reloadScenario: () => scenarios.reload(),
    journal,
    reset: async () => {
      await scenarios.reset();
      await mode.reset();
    },
    requests: (filter) => journal.entries(filter),
    close: async () => {
      scenarios.close();
      await mode.close();
      await store.close();
    },
    onCheckContinue: mode.onCheckContinue,
  };
}

/** Builds the runtime; if it refuses the scenario (a recording without a replayer), the store is released. */
async function runtimeOrRelease(store: CloudStore, build: () => Promise<ScenarioRuntime>): Promise<ScenarioRuntime> {
  try {
    return await build();
  } catch (err) {
    await store.close();
    throw err;
  }
}
