import express, { type Express } from 'express';
import type { RequestListener, Server } from 'node:http';
import { adminGuard } from './admin/admin-guard.js';
import { builtOnFirstUse } from './http/built-on-first-use.js';
import type { CloudStore } from './domain/cloud-store.js';
import { createEmulator } from './emulator.js';
import type { ClockControls } from './clock/clock-controls.js';
import { inProcessChannel, type MockCore, type PartKey, type ProvidedPart } from './feature.js';
import { FEATURES, mockControls, SCENARIO_SECTIONS, SERVICE_SURFACES, type MockControls } from './features.js';
import { answerWriter, atService } from './http/answer-writer.js';
import { cors } from './http/cors.js';
import { errorMiddleware } from './http/error-middleware.js';
import { hostCheck } from './http/host-check.js';
import { RequestJournal, type JournalEntry, type JournalFilter } from './http/journal.js';
import { requestLog, requestLogger } from './http/request-log.js';
import { stdoutLine } from './http/stdout-lines.js';
import { dispatchMode, prepareMode } from './mode.js';
import { logToConsole, resolveOptions, type MockOptions, type ResolvedOptions } from './options.js';
import { faultMiddleware } from './scenarios/fault-middleware.js';
import { loadScenario, type ScenarioTrust } from './scenarios/load.js';
import { ScenarioRuntime, activeOf } from './scenarios/scenario-runtime.js';
import type { DeviceChange, ReplayHandlerFactory, ResolvedScenario, ScenarioDefinition } from './scenarios/types.js';
import { usePipeline, type MockSteps } from './request-pipeline.js';
import { StartingState } from './starting-state.js';

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
  /** The mock's clock: now, set, advance, offset, freeze, resume (`options.clock` is the same clock, synchronous). */
  clock: ClockControls;
  /** The request journal itself (subscribe() hears each completed request). */
  journal: RequestJournal;
  /** The request journal, oldest first, credentials removed; a filter picks method, path glob, status, since. */
  requests(filter?: JournalFilter): JournalEntry[];
  /**
   * The second device changes the account now, through the domain as a client would (one change or a list,
   * in order); resolves with their journal entries, rejects with ChangeRefusedError when one cannot apply.
   */
  change(change: DeviceChange | readonly DeviceChange[]): Promise<JournalEntry[]>;
  /** The calls every handle has (startMock's, interceptCloud's, the Playwright fixture's), on this mock. */
  controls: MockControls;
  /** Releases the store (and its temp blob directory in memory mode). */
  close(): Promise<void>;
  /**
   * Makes `server` serve this mock: `app` (or `listener`, the server's tenant routing in front of it) as its
   * request listener, and whatever the mode needs of the server (record: Expect: 100-continue).
   */
  attach(server: Server, listener?: RequestListener): void;
}

/** What a served mock adds around an app: its features' parts (the server's tenants); a tenant's mount. */
export interface AppParts {
  /** Parts the server's features give this mock (the tenants, to the default mock). */
  provided?: readonly ProvidedPart[];
  /** A tenant's "/t/<name>": the app answers under it, and its links carry it. */
  mountPath?: string;
  /** Who named `options.scenario` (a tenant's, sent over HTTP: 'http'). Default 'user'. */
  scenarioTrust?: ScenarioTrust;
}

/** Builds the express app in request order, one step a line. Never listens. */
export async function createApp(options: MockOptions = {}, parts: AppParts = {}): Promise<MockApp> {
  const resolved = resolveOptions(options);
  const cwd = resolved.baseDir;
  const mountPath = parts.mountPath ?? '';
  const initial = await loadScenario(resolved.scenario, cwd, SCENARIO_SECTIONS, parts.scenarioTrust);
  // The starting scenario's clock, before the store stamps its seed.
  resolved.clock.apply(initial.clock);
  const starting = new StartingState(resolved);
  const prepared = await prepareMode(resolved.mode, cwd, starting);
  const store = await starting.open(initial);
  const journal = new RequestJournal({
    size: resolved.journalSize,
    bodies: resolved.journalBodies,
    redact: resolved.mode.kind === 'record' ? (resolved.mode.redact ?? []) : [],
    clock: resolved.clock,
  });
  // A scenario that names a recording loads the replayer then, not at start.
  const replayHandler: ReplayHandlerFactory =
    resolved.replayHandler ??
    (async (recording, scenario) => {
      const { scenarioReplayFactory } = await import('./replay/scenario-replay.js');
      return scenarioReplayFactory({ cwd, publicUrl: resolved.publicUrl, mountPath, log: resolved.log })(
        recording,
        scenario,
      );
    });
  const scenarios = await runtimeOrRelease(store, () =>
    ScenarioRuntime.create(initial, {
      store,
      starting,
      options: resolved,
      journal,
      replayHandler,
      cwd,
      sections: SCENARIO_SECTIONS,
    }),
  );
  // The emulator: the service itself, over the one store (emulator.ts).
  // Replay's emulated misses know each recorded login by a throw-away password (mode.ts).
  const recordedLogins = prepared.kind === 'replay' ? prepared.emulatedLogins : undefined;
  const emulator = createEmulator(store, {
    users: recordedLogins ? () => new Map([...scenarios.users(), ...recordedLogins]) : () => scenarios.users(),
    strict: resolved.strict,
    deviations: () => scenarios.scenario.deviations ?? [],
    log: resolved.log,
    publicUrl: resolved.publicUrl,
    mountPath,
    surfaces: SERVICE_SURFACES,
  });
  const mode = await runtimeOrRelease(store, () =>
    dispatchMode(prepared, { emulator, publicUrl: resolved.publicUrl, log: resolved.log }),
  );
  const watchLog = options.log
    ? requestLogger(resolved.log === logToConsole ? stdoutLine : resolved.log, {
        format: resolved.logFormat,
        verbose: resolved.verbose,
      })
    : undefined;
  // The one reset: in-process (mock.reset()) and over the admin API (csp-mock reset, connectMock, the inspector).
  // One transaction: the starting state holds everything a reset goes back to (replay's recorded trees too).
  const reset = async (): Promise<void> => {
    await scenarios.reset();
    mode.reset();
  };
  // The features (features.ts), each mounted once over the mock's core; their parts kept by key.
  const featureParts = new Map<PartKey<unknown>, unknown>();
  const core: MockCore = {
    store,
    journal,
    clock: resolved.clock,
    scenarios,
    options: resolved,
    mountPath,
    reset,
    part: <T>(key: PartKey<T>): T => {
      if (!featureParts.has(key)) throw new Error(`${key.name} is not part of this mock`);
      return featureParts.get(key) as T;
    },
    has: (key) => featureParts.has(key),
    provide: (key, value) => void featureParts.set(key, value),
  };
  for (const part of parts.provided ?? []) part.give(core);
  const features = FEATURES.map((feature) => feature.mount?.(core) ?? {});
  scenarios.subscribe(() => {
    for (const feature of features) feature.switched?.();
  });
  // The in-process handle, made on first use (a tenant, driven over HTTP, never uses it).
  let controls: MockControls | undefined;
  const controlsOf = (): MockControls => (controls ??= mockControls(inProcessChannel(core)));
  // The mock's own steps, which the one pipeline runs in request order (request-pipeline.ts says why each is where).
  const corsSteps = resolved.cors
    ? cors({
        origins: resolved.corsOrigins,
        publicUrl: resolved.publicUrl,
        preflightFaulted: () => scenarios.active.faultsPreflights,
      })
    : undefined;
  const steps: MockSteps = {
    requestLog: watchLog && requestLog(watchLog),
    hostCheck: hostCheck({ allowedHosts: resolved.allowedHosts, publicUrl: resolved.publicUrl }),
    cors: corsSteps?.headers,
    features,
    adminGuard: adminGuard({ publicUrl: resolved.publicUrl }),
    // A wait "from now" counts from here: requests that arrive while the first call loads the routes count too.
    markArrival: (_req, res, next) => {
      res.locals['journalMark'] = journal.lastSeq;
      next();
    },
    // Most test suites drive the mock in-process and never make an admin call.
    adminRoutes: builtOnFirstUse(async () =>
      (await import('./admin/admin-router.js')).adminRouter({ mock: core, features: FEATURES }),
    ),
    journal: journal.middleware(),
    admit: scenarios.admit(),
    faults: faultMiddleware(scenarios.delays),
    // A held preflight answered; else a scenario's replayer, or the modes' one dispatch point.
    service: (req, res, next) => {
      if (corsSteps?.answeredHeld(req, res)) return;
      atService(req, res);
      (activeOf(res).replay ?? mode.handler)(req, res, next);
    },
    error: errorMiddleware(resolved.log),
  };
  const app = express();
  app.disable('x-powered-by');
  // ETags: entities carry their own (made from the nodes); express hashes only the bodies of the rest.
  app.set('etag', 'strong');
  // Every answer leaves through the one answer writer, its stages in one written order (http/answer-writer.ts):
  // the service answer's hooks, pacing, truncation, the journal's tap; as the headers go out, the sandbox
  // policy on what the mock serves besides its admin pages (a browser opens it with no script, an opaque
  // origin, never sniffed: no handler, fault or recording can replace it), then the Date from the mock's clock
  answerWriter(app, { clock: resolved.clock, mountPath });
  // A tenant's steps answer under its /t/<name> (express's own mounting: every base URL and link carries it).
  usePipeline(app, steps, mountPath);

  return {
    app,
    store,
    options: resolved,
    get scenario() {
      return scenarios.scenario;
    },
    useScenario: (scenario) => scenarios.use(scenario),
    get clock() {
      return controlsOf().clock;
    },
    reloadScenario: () => scenarios.reload(),
    journal,
    reset,
    requests: (filter) => journal.entries(filter),
    change: (change) => controlsOf().change(change),
    get controls() {
      return controlsOf();
    },
    close: async () => {
      for (const feature of features) await feature.close?.();
      scenarios.close();
      await mode.close();
      await store.close();
    },
    attach: (server, listener = app) => {
      server.on('request', listener);
      mode.attach(server, listener);
    },
  };
}

/** Builds a part; if it fails (a recording without a replayer, an unwritable recording), the store is released. */
async function runtimeOrRelease<T>(store: CloudStore, build: () => Promise<T>): Promise<T> {
  try {
    return await build();
  } catch (err) {
    await store.close();
    throw err;
  }
}
