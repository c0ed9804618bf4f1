import express, { type Express } from 'express';
import type { CloudStore } from './domain/cloud-store.js';
import { davRouter } from './dav/index.js';
import { basicAuth } from './http/auth.js';
import { clientSpecification } from './http/client-spec.js';
import { errorMiddleware } from './http/error-middleware.js';
import { notFoundError } from './http/errors.js';
import { requestLog } from './http/request-log.js';
import { openStore, resetStore } from './mock-state.js';
import { resolveOptions, type MockOptions, type ResolvedOptions } from './options.js';
import { dispatchMode, type ModeDispatch } from './record-replay/mode.js';
import { restRouter } from './rest/index.js';
import { Links } from './xml/links.js';

/** An assembled mock that does not listen: hand `app` to supertest or to http.createServer. */
export interface MockApp {
  app: Express;
  store: CloudStore;
  options: ResolvedOptions;
  /** State back to the seed (the demo tree unless seed is 'empty'). */
  reset(): Promise<void>;
  /** Releases the store (and its temp blob directory in memory mode). */
  close(): Promise<void>;
  /** Record mode: called for requests with Expect: 100-continue, whose 100 the upstream decides. */
  onCheckContinue?: ModeDispatch['onCheckContinue'];
}

/** Builds the express app in request order, one step a line. Never listens. */
export async function createApp(options: MockOptions = {}): Promise<MockApp> {
  const resolved = resolveOptions(options);
  const store = await openStore(resolved);
  const app = express();
  app.disable('x-powered-by');
  // 1. one log line per request (method, path, status, time, user; never credentials or query)
  app.use(requestLog(resolved.log));

  // Steps 2-5 make up the emulator.
  const emulator = express();
  emulator.disable('x-powered-by');
  emulator.set('etag', 'strong');
  // 2. absolute links from --public-url or the request's Host
  emulator.use((req, res, next) => {
    res.locals['links'] = new Links(resolved.publicUrl ?? `${req.protocol}://${req.headers.host ?? 'localhost'}`);
    next();
  });
  // 3. the REST interface: Basic auth, X-Client-Specification, then one router per resource
  const auth = basicAuth(() => resolved.users);
  emulator.use('/v2', auth, clientSpecification(resolved.strict, resolved.log), restRouter(store));
  // 4. the WebDAV view over the same store, same credentials
  emulator.use('/dav', auth, davRouter(store));
  // 5. anything else is 404; every error becomes one text/plain answer
  emulator.use((req, _res, next) => next(notFoundError(`no resource at ${req.path}`)));
  emulator.use(errorMiddleware(resolved.log));

  // 6. the one dispatch point of the modes: emulate -> the emulator; record -> the recording proxy;
  //    replay -> the recording (misses to the emulator or the upstream as configured)
  const mode = await dispatchMode(resolved.mode, { emulator, store, publicUrl: resolved.publicUrl, log: resolved.log });
  app.use(mode.handler);

  return {
    app,
    store,
    options: resolved,
    reset: async () => {
      await resetStore(store, resolved);
      await mode.reset();
    },
    close: async () => {
      await mode.close();
      await store.blobs.close();
    },
    onCheckContinue: mode.onCheckContinue,
  };
}
