import { createServer, type RequestListener, type Server } from 'node:http';
import { isIP, type AddressInfo } from 'node:net';
import { createApp, type MockApp } from './app.js';
import type { ServedFeature, ServedListener } from './feature.js';
import type { JournalEntry, JournalFilter } from './http/journal.js';
import { FEATURES, type MockControls } from './features.js';
import { DEFAULT_HOST, DEFAULT_TIMEOUTS, type MockOptions, type ServerTimeouts } from './options.js';
import type { HttpsEndpoint, HttpsOptions } from './tls/server-identity.js';
import type { TenantSettings } from './tenants/feature.js';

export { DEFAULT_TIMEOUTS, type HttpsEndpoint, type ServerTimeouts, type TenantSettings };

export interface StartOptions extends MockOptions {
  /** Default 0: a free port, read it back from `port` or `url`. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Socket and request time limits (DEFAULT_TIMEOUTS). */
  timeouts?: ServerTimeouts;
  /**
   * Serve HTTPS: `true` with a certificate signed by the local CA (made once in the user's configuration
   * folder), or your own `{ cert, key }`; `{ port }` adds an HTTPS listener beside HTTP on `port`.
   */
  https?: boolean | HttpsOptions;
  /** Tenants: isolated mocks under /t/<name>, made over the admin API (POST /__admin/tenants). */
  tenants?: TenantSettings;
}

function applyTimeouts(server: Server, given: ServerTimeouts = {}): void {
  const t = { ...DEFAULT_TIMEOUTS, ...given };
  server.headersTimeout = t.headersMs;
  server.requestTimeout = t.requestMs;
  server.keepAliveTimeout = t.keepAliveMs;
  // The socket idle timeout: Node destroys the socket when it fires with no 'timeout' listener.
  server.setTimeout(t.idleMs);
}

/** 127.0.0.0/8, ::1 and localhost reach only this machine. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

/** A running mock: its address, and the test-lifecycle calls. */
export interface RunningMock extends MockControls {
  /** Base URL, e.g. http://127.0.0.1:53211 (REST under /v2, WebDAV under /dav); https:// when `https` serves on `port`. */
  url: string;
  port: number;
  /** Set when the mock serves HTTPS. */
  https: HttpsEndpoint | undefined;
  app: MockApp['app'];
  store: MockApp['store'];
  /** The options in force, paths absolute. */
  options: MockApp['options'];
  /** The active scenario. */
  readonly scenario: MockApp['scenario'];
  /** Switches scenario atomically: a built-in or ./scenarios name, a path, or an inline scenario. */
  useScenario: MockApp['useScenario'];
  /** Re-reads the active scenario's file (faults, latency) without touching the state. */
  reloadScenario: MockApp['reloadScenario'];
  /** State back to the active scenario's seed, fault counters and journal cleared; call it in beforeEach/afterEach. */
  reset(): Promise<void>;
  /**
   * The request journal (method, path, status, outcome, fault), oldest first, credentials removed. A promise,
   * as connectMock's is, so a test body runs against either (createApp's `requests()` is the synchronous one).
   */
  requests(filter?: JournalFilter): Promise<JournalEntry[]>;
  /** Stops listening, drops open connections and releases the store. */
  close(): Promise<void>;
}

/**
 * Starts the emulator on a port (0 by default) for a test suite:
 * `const mock = await startMock({ scenario: 'tag-objects-500' }); ... await mock.close();`
 */
export async function startMock(options: StartOptions = {}): Promise<RunningMock> {
  const host = options.host ?? DEFAULT_HOST;
  // The name we are bound to is ours too (an IP literal passes the Host check anyway).
  const allowedHosts = [...(options.allowedHosts ?? []), ...(isIP(host) === 0 ? [host] : [])];
  // The features of a served mock (TLS, tenants), before the app: a certificate that does not match its key
  // changes nothing (no state file is made).
  const served: ServedFeature[] = [];
  const closeServed = async (): Promise<void> => void (await Promise.all(served.map((s) => s.close?.())));
  try {
    for (const feature of FEATURES) {
      const part = await feature.serve?.({ options, host, allowedHosts, makeMock: createApp });
      if (part) served.push(part);
    }
  } catch (err) {
    await closeServed();
    throw err;
  }
  const provided = served.flatMap((s) => s.provide ?? []);
  const mock = await createApp({ ...options, allowedHosts }, { provided }).catch(async (err: unknown) => {
    await closeServed();
    throw err;
  });
  const listener = served.reduce<RequestListener>((next, s) => s.route?.(next) ?? next, mock.app);
  // One plain HTTP server, unless a feature (TLS) listens otherwise.
  const listeners = served.reduce<ServedListener[] | undefined>(
    (got, s) => got ?? s.listeners?.(createServer),
    undefined,
  ) ?? [{ server: createServer(), scheme: 'http' }];
  const servers = listeners.map((l) => l.server);
  for (const s of servers) {
    mock.attach(s, listener);
    applyTimeouts(s, options.timeouts);
  }
  try {
    for (const l of listeners) await listen(l.server, l.port ?? options.port ?? 0, host);
  } catch (err) {
    await closeServers(servers);
    await closeServed();
    await mock.close();
    throw new Error(`cannot listen on ${host}:${options.port ?? 0}: ${(err as Error).message}`);
  }
  if (!isLoopback(host) && !options.adminToken) {
    console.warn(
      `csp-mock: warning: listening on ${host}, reachable from other machines, and the admin API (/__admin: reset, scenario switch, state) has no token; ` +
        'anyone who can connect can use it. Start with --admin-token TOKEN (option adminToken), or bind 127.0.0.1.',
    );
  }
  if (mock.options.cors && mock.options.corsOrigins.includes('*')) {
    console.warn(
      'csp-mock: warning: CORS allows every origin (--cors-origin "*", option corsOrigins): any web page open in your browser ' +
        'may call /v2, /dav and /cdmi and read the answers, with the logins it knows. List the origins you use instead.',
    );
  }
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const listening = listeners.map(({ server, scheme }) => {
    const { port } = server.address() as AddressInfo;
    return { url: `${scheme}://${shownHost}:${port}`, port };
  });
  const { url, port } = listening[0]!;
  return {
    ...mock.controls,
    url,
    port,
    https: served.find((s) => s.https)?.https?.(listening),
    app: mock.app,
    store: mock.store,
    options: mock.options,
    get scenario() {
      return mock.scenario;
    },
    useScenario: mock.useScenario,
    reloadScenario: mock.reloadScenario,
    close: async () => {
      await closeServers(servers);
      await closeServed();
      await mock.close();
    },
  };
}

function closeServers(servers: Server[]): Promise<void> {
  return Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          if (!server.listening) return resolve();
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    ),
  ).then(() => undefined);
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
