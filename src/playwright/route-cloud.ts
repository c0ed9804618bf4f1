import type { BrowserContext, Route } from '@playwright/test';
import { createApp, type MockApp } from '../app.js';
import { InProcessHttp } from '../http/in-process-http.js';
import type { MockControls } from '../features.js';
import type { MockOptions } from '../options.js';
import { plainRequestOfRoute, routeAnswerOf } from './route-exchange.js';

/** The service's surfaces under the base URL: what is routed to the mock (the rest goes to the network). */
const SERVICE_PATHS = ['/v2', '/dav', '/cdmi'];

/** The `cspMock` fixture: an in-process mock that a browser context's requests to the service reach. */
export interface PlaywrightMock extends MockControls {
  /** The base URL the page uses (cspMockBaseUrl): `${url}/v2`, `${url}/dav`, `${url}/cdmi` reach this mock. */
  readonly url: string;
  /** The mock's store (its state, read directly). */
  readonly store: MockApp['store'];
  /** The active scenario. */
  readonly scenario: MockApp['scenario'];
  /** Switches scenario atomically: a built-in or ./scenarios name, a path, or an inline scenario. */
  useScenario: MockApp['useScenario'];
}

/** A routed mock and how to take it down. */
export interface RoutedCloud extends PlaywrightMock {
  /** Removes the route and releases the mock (its store, its temp folder). */
  close(): Promise<void>;
}

/** True when `url` is one of the service's surfaces under `base` (its origin, below its path). */
function isServiceUrl(url: URL, base: URL, prefix: string): boolean {
  if (url.origin !== base.origin) return false;
  const path = url.pathname;
  return SERVICE_PATHS.some((surface) => {
    const under = `${prefix}${surface}`;
    return path === under || path.startsWith(`${under}/`);
  });
}

/**
 * Starts an in-process mock and routes `context`'s requests to the service under `baseUrl` to it
 * (context.route, fulfilled by the mock's app over an in-memory connection: no port). A request the mock
 * answers by resetting the connection, or by cutting a body short, fails in the page as a network error
 * (route.abort). The `cspMock` fixture is this over the test's context; call it for a context of your own:
 *
 * ```ts
 * const cloud = await routeCloud(context, 'https://cloud.example.test', { seed: 'empty' });
 * // ... the context's pages use https://cloud.example.test/v2 ...
 * await cloud.close();
 * ```
 */
export async function routeCloud(
  context: BrowserContext,
  baseUrl: string,
  options: MockOptions = {},
): Promise<RoutedCloud> {
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const url = `${base.origin}${prefix}`;
  // Only this context's pages reach a routed mock (it has no port), so any page origin may read it.
  const mock = await createApp({
    ...options,
    corsOrigins: options.corsOrigins ?? ['*'],
    publicUrl: options.publicUrl ?? url,
  });
  const http = new InProcessHttp(mock.app);
  const matches = (requested: URL): boolean => isServiceUrl(requested, base, prefix);
  const handler = async (route: Route): Promise<void> => {
    const request = route.request();
    let answer;
    try {
      answer = await http.dispatch(await plainRequestOfRoute(request, prefix));
    } catch {
      // The mock reset or closed the connection before a whole answer: in the field, a network error.
      await route.abort('connectionreset');
      return;
    }
    await route.fulfill(routeAnswerOf(answer));
  };
  await context.route(matches, handler);
  let closed = false;
  return {
    ...mock.controls,
    url,
    store: mock.store,
    get scenario() {
      return mock.scenario;
    },
    useScenario: mock.useScenario,
    close: async () => {
      if (closed) return;
      closed = true;
      await context.unroute(matches, handler);
      await mock.close();
    },
  };
}
