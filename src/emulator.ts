import express, { Router, type RequestHandler } from 'express';
import type { RequestListener } from 'node:http';
import type { CloudStore } from './domain/cloud-store.js';
import { sendAnswer } from './http/answer.js';
import { refusedLogin } from './http/auth.js';
import { builtOnFirstUse } from './http/built-on-first-use.js';
import { refusedSpecification } from './http/client-spec.js';
import { errorMiddleware } from './http/error-middleware.js';
import { notFound } from './domain/errors.js';
import { restRoutes } from './rest/index.js';
import type { Deviation } from './rest/deviations.js';
import { serviceOf, type ServiceContext } from './http/service-context.js';

export interface EmulatorDeps {
  /** The logins and passwords Basic auth accepts now (the active scenario's). */
  users: () => ReadonlyMap<string, string>;
  strict: boolean;
  /** The interface-document deviations the active scenario turns on (rest/deviations.ts). */
  deviations: () => readonly Deviation[];
  log: (line: string) => void;
  publicUrl?: string;
  /** A tenant's "/t/<name>": its links carry it. Default "". */
  mountPath?: string;
  /** The features' surfaces of the service (features.ts: the same list for every mock of the process). */
  surfaces: readonly ServiceSurface[];
}

/**
 * A surface a feature adds to the service (CDMI's /cdmi): under the service's Basic auth, its routes loaded
 * and built on its first request, reading the mock's context as the service's own routes do.
 */
export interface ServiceSurface {
  path: string;
  routes(): Promise<RequestHandler>;
}

/** The service itself, over the one store: a router for the app, and a listener of its own on demand. */
export interface Emulator {
  /** Mounted in the app: the common path runs through one express app. */
  routes: RequestHandler;
  /**
   * The same routes as a request listener of their own. Replay with misses emulated needs it: the
   * replayer has read the request's body to match it, so it asks the emulator again with a request of
   * its own (http/in-process-http.ts) and keeps the answer. Built on the first call, never on the common path.
   */
  listener(): RequestListener;
}

/**
 * The emulator of one mock: its context (store and settings) handed to the one set of service routes
 * that every mock of the process shares, so a mock (a tenant) costs no routes of its own.
 */
export function createEmulator(store: CloudStore, deps: EmulatorDeps): Emulator {
  const context: ServiceContext = {
    store,
    users: deps.users,
    rules: { strict: deps.strict, deviates: (d) => deps.deviations().some((on) => on === d) },
    log: deps.log,
    publicUrl: deps.publicUrl,
    mountPath: deps.mountPath ?? '',
  };
  const routes: RequestHandler = (req, res, next) => {
    res.locals.service = context;
    serviceRoutes(deps.surfaces)(req, res, next);
  };
  let own: RequestListener | undefined;
  return {
    routes,
    listener: () => (own ??= emulatorApp(routes, deps.log)),
  };
}

let shared: Router | undefined;

/** The service's routes, built once in request order, one step a line; each reads its mock's context. */
function serviceRoutes(surfaces: readonly ServiceSurface[]): Router {
  if (shared) return shared;
  // Paths are case-sensitive on the service: /V2 is not /v2.
  const routes = Router({ caseSensitive: true });
  // E1. the REST interface: Basic auth (the active scenario's users), then X-Client-Specification; its routes
  // (links absolute from --public-url or the request's Host, made when an answer needs them: rest's linksOf)
  routes.use('/v2', (req, res, next) => {
    const service = serviceOf(res);
    next(refusedLogin(req, res, service.users()) ?? refusedSpecification(req, service.rules.strict, service.log));
  });
  restRoutes(routes);
  // E2. the WebDAV view over the same store, same credentials; OPTIONS / announces it to clients that probe the root
  // (loaded and built on the first request: many clients use only /v2)
  const auth: RequestHandler = (req, res, next) => next(refusedLogin(req, res, serviceOf(res).users()));
  const dav = () => import('./dav/index.js');
  routes.use(
    '/dav',
    auth,
    builtOnFirstUse(async () => (await dav()).davRouter()),
  );
  routes.options(
    '/',
    builtOnFirstUse(async () => {
      const { OPTIONS_ANSWER } = await dav();
      return (_req, res) => sendAnswer(res, OPTIONS_ANSWER);
    }),
  );
  // E2b. the features' surfaces (CDMI's notification queues), same credentials
  for (const surface of surfaces) routes.use(surface.path, auth, builtOnFirstUse(surface.routes));
  // E3. anything else is 404; errors go on to the app's one error middleware
  routes.use((req, _res, next) => next(notFound('resource', `no resource at ${req.path}`)));
  return (shared = routes);
}

/** The routes in an express app of their own, with the app's settings (see createApp) and its error middleware. */
function emulatorApp(routes: RequestHandler, log: (line: string) => void): RequestListener {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', 'strong');
  app.use(routes);
  app.use(errorMiddleware(log));
  return app;
}
