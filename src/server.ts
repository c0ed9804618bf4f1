import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type MockApp } from './app.js';
import { DEFAULT_HOST, type MockOptions } from './options.js';

export interface StartOptions extends MockOptions {
  /** Default 0: a free port, read it back from `port` or `url`. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

/** A running mock: its address, and the test-lifecycle calls. */
export interface RunningMock {
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
  /** The request journal (method, path, status, outcome, fault), oldest first, credentials removed. */
  requests: MockApp['requests'];
  /** Stops listening, drops open connections and releases the store. */
  close(): Promise<void>;
}

/**
 * Starts the emulator on a port (0 by default) for a test suite:
 * `const mock = await startMock({ scenario: 'tag-objects-500' }); ... await mock.close();`
 */
export async function startMock(options: StartOptions = {}): Promise<RunningMock> {
  const mock = await createApp(options);
  const server = createServer(mock.app);
  // Record mode lets the upstream decide on Expect: 100-continue; otherwise Node answers it.
  const onCheckContinue = mock.onCheckContinue;
  if (onCheckContinue) {
    server.on('checkContinue', (req, res) => {
      onCheckContinue(req);
      mock.app(req, res);
    });
  }
  const host = options.host ?? DEFAULT_HOST;
  try {
    await listen(server, options.port ?? 0, host);
  } catch (err) {
    await mock.close();
    throw new Error(`cannot listen on ${host}:${options.port ?? 0}: ${(err as Error).message}`);
  }
  const { port } = server.address() as AddressInfo;
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
    requests: mock.requests,
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
