import { Router, type ErrorRequestHandler, type Express, type Request, type RequestHandler } from 'express';
import type { adminGuard } from './admin/admin-guard.js';
import type { MountedFeature, StepPlace } from './feature.js';
import { FEATURES } from './features.js';
import { originFormUrl } from './http/origin-form.js';

/**
 * One mock's request steps: closures over its own parts (journal, scenarios, mode, options), cheap to make.
 * The pipeline below runs them in request order for every mock of the process.
 */
export interface MockSteps {
  requestLog: RequestHandler | undefined;
  hostCheck: RequestHandler;
  cors: RequestHandler | undefined;
  /** Each feature's steps, in the order of FEATURES. */
  features: readonly MountedFeature[];
  adminGuard: ReturnType<typeof adminGuard>;
  markArrival: RequestHandler;
  adminRoutes: RequestHandler;
  journal: RequestHandler;
  admit: RequestHandler;
  faults: RequestHandler;
  service: RequestHandler;
  error: ErrorRequestHandler;
}

/** Each app's steps: the app a request reached is express's `req.app`. */
const stepsOfApp = new WeakMap<object, MockSteps>();

const stepsOf = (req: Request): MockSteps => {
  const steps = stepsOfApp.get(req.app);
  if (!steps) throw new Error('a request reached the pipeline through an app that has no steps');
  return steps;
};

/** The mock's own step, or on to the next when this mock has none there. */
const step =
  (pick: (steps: MockSteps) => RequestHandler | undefined): RequestHandler =>
  (req, res, next) => {
    const own = pick(stepsOf(req));
    return own ? own(req, res, next) : next();
  };

const featureSteps = (place: StepPlace): RequestHandler[] =>
  FEATURES.map((_feature, i) => step((steps) => steps.features[i]?.steps?.[place]));

/**
 * The steps in request order, one router built once and shared by every mock of the process (a tenant's
 * creation compiles no route), each step reaching the mock's own through the app the request reached.
 */
function buildPipeline(): Router {
  const pipeline = Router();
  // 0. a request line in absolute form (as to a proxy) is read as its origin form by every step after
  pipeline.use(originFormUrl);
  // 1. (every answer leaves through its app's one answer writer, set up in app.ts)
  // 2. one log line per request (method, path, status, time, user, fault and outcome; never credentials or query),
  //    then only our own Host names, on every surface (a DNS-rebinding page could otherwise read /dav with demo:demo)
  pipeline.use(
    step((s) => s.requestLog),
    step((s) => s.hostCheck),
  );
  // 2b. CORS on the service's paths (never /__admin): a page on an allowed origin (loopback, or listed) gets
  //     the headers on every answer that follows, its preflight answered here (not journaled, no auth, no
  //     fault, unless the scenario names OPTIONS); any other page's request is refused with 403
  pipeline.use(step((s) => s.cors));
  // 2c. the features' steps before the admin API (a served mock's /t/<name> that names no live tenant: the server
  //     hands live ones to their own app)
  pipeline.use(featureSteps('before-admin'));
  // 3. the admin API (inspector, switch, reset, journal, state), no faults, not journaled; everything
  //    under /__admin passes the guard first (same origin, JSON bodies), then its optional token
  //    (in a router of its own: the other requests pass one path test, not one per step);
  //    a wait "from now" counts from its arrival, then the routes (loaded and built on the mock's first admin call)
  pipeline.use(
    '/__admin',
    Router().use(
      step((s) => s.adminGuard[0]),
      step((s) => s.adminGuard[1]),
      step((s) => s.markArrival),
      step((s) => s.adminRoutes),
    ),
  );
  // 4. the request journal (credentials removed), then admission under the active scenario (atomic switches)
  pipeline.use(
    step((s) => s.journal),
    step((s) => s.admit),
  );
  // 4b. the features' steps on admitted requests (the second device counts the requests its changes wait for)
  pipeline.use(featureSteps('admitted'));
  // 5. global latency and the first fault rule that fires, before auth (expired credentials is a fault)
  pipeline.use(step((s) => s.faults));
  // 6. a preflight the scenario's rules could fault (they name OPTIONS) and did not: answered now; else
  //    the service: from here the answer writer notes the status it answers (the journal's `committed`) and runs
  //    what earlier steps asked for then (an ambiguous commit's reset, a second-device change before the answer);
  //    a scenario that names a recording: its replayer answers; else the one dispatch point of the modes:
  //    emulate -> the emulator; record -> the recording proxy; replay -> the recording (misses to the emulator or
  //    the upstream as configured)
  pipeline.use(step((s) => s.service));
  pipeline.use(((err, req, res, next) => stepsOf(req).error(err, req, res, next)) as ErrorRequestHandler);
  return pipeline;
}

let pipeline: Router | undefined;

/** Serves `app` with `steps`, through the one pipeline, under `mountPath` (a tenant's "/t/<name>") or at its root. */
export function usePipeline(app: Express, steps: MockSteps, mountPath: string): void {
  stepsOfApp.set(app, steps);
  pipeline ??= buildPipeline();
  if (mountPath) app.use(mountPath, pipeline);
  else app.use(pipeline);
}
