import { createServer, type Server } from 'node:http';
import { isIP, type AddressInfo } from 'node:net';
import { createApp, type MockApp } from './app.js';
import type { JournalEntry, JournalFilter } from './http/journal.js';
import { countRequests, waitForRequest } from './http/journal-wait.js';
import type { MockControls } from './mock-controls.js';
import { DEFAULT_HOST, DEFAULT_TIMEOUTS, type MockOptions, type ServerTimeouts } from './options.js';

export { DEFAULT_TIMEOUTS, type ServerTimeouts };

export interface StartOptions extends MockOptions {
  /** Default 0: a free port, read it back from `port` or `url`. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Socket and request time limits (DEFAULT_TIMEOUTS). */
  timeouts?: ServerTimeouts;
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
  /** Base URL, e.g. http://127.0.0.1:53211 (REST under /v2, WebDAV under /dav). */
  url: string;
  port: number;
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
  const mock = await createApp({ ...options, allowedHosts });
  const server = createServer();
  mock.attach(server);
  applyTimeouts(server, options.timeouts);
  try {
    await listen(server, options.port ?? 0, host);
  } catch (err) {
    await mock.close();
    throw new Error(`cannot listen on ${host}:${options.port ?? 0}: ${(err as Error).message}`);
  }
  const { port } = server.address() as AddressInfo;
  if (!isLoopback(host) && !options.adminToken) {
    console.warn(
      `csp-mock: warning: listening on ${host}, reachable from other machines, and the admin API (/__admin: reset, scenario switch, state) has no token; ` +
        'anyone who can connect can use it. Start with --admin-token TOKEN (option adminToken), or bind 127.0.0.1.',
    );
  }
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    app: mock.app,
    store: mock.store,
    options: mock.options,
    get scenario() {
      return mock.scenario;
    },
    useScenario: mock.useScenario,
    reloadScenario: mock.reloadScenario,
    reset: mock.reset,
    requests: async (filter) => mock.requests(filter),
    change: mock.change,
    clock: mock.clock,
    waitForRequest: (filter, waitOptions) => waitForRequest(mock.journal, filter, waitOptions),
    countRequests: async (filter) => countRequests(mock.journal, filter),
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await mock.close();
    },
  };
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
