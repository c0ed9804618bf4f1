import { test as base } from '@playwright/test';
import type { MockOptions } from '../options.js';
import type { TenantOptions } from '../remote/tenant-calls.js';
import { routeCloud, type PlaywrightMock } from './route-cloud.js';
import { openWorkerTenant, servedMockUrl, type ServedTenant } from './served-tenant.js';

/** The base URL the page reaches the service at, when a project does not set `cspMockBaseUrl`. */
export const DEFAULT_BASE_URL = 'https://cloud.example.test';

/** The options a project or a test sets: `use: { cspMockBaseUrl, cspMockOptions }`, `test.use({ ... })`. */
export interface CspMockTestOptions {
  /** Where the page under test reaches the service (default https://cloud.example.test). */
  cspMockBaseUrl: string;
  /** The mock's options (users, seed, scenario, clock...), as createApp takes them. */
  cspMockOptions: MockOptions;
}

/** The test-scoped fixtures. */
export interface CspMockFixtures extends CspMockTestOptions {
  /** An isolated in-process mock for this test; the context's requests to `cspMockBaseUrl` reach it. */
  cspMock: PlaywrightMock;
}

/** The options of a project (or a file's top-level `test.use`) for `cspMockServer`: one value per worker. */
export interface CspMockWorkerOptions {
  /** The served mock (`csp-mock serve`) whose tenants the workers use; default the env CSP_MOCK_URL. */
  cspMockServerUrl: string | undefined;
  /** What each worker's tenant is made with: scenario, seed, users, clock, strict, journalSize, journalBodies. */
  cspMockServerOptions: TenantOptions;
}

/** The worker-scoped fixtures. */
export interface CspMockWorkerFixtures extends CspMockWorkerOptions {
  /**
   * This worker's own tenant of the served mock, made when the worker's first test names it and deleted when
   * the worker ends: the page calls its `url` directly (a loopback page origin is allowed by CORS), the test
   * controls it as a RemoteMock. The worker's tests share it, one after another.
   */
  cspMockServer: ServedTenant;
}

/** `@playwright/test`'s test with the csp-mock fixtures. */
export const test = base.extend<CspMockFixtures, CspMockWorkerFixtures>({
  cspMockBaseUrl: [DEFAULT_BASE_URL, { option: true }],
  cspMockOptions: [{}, { option: true }],
  cspMock: async ({ context, cspMockBaseUrl, cspMockOptions }, use) => {
    const mock = await routeCloud(context, cspMockBaseUrl, cspMockOptions);
    try {
      await use(mock);
    } finally {
      await mock.close();
    }
  },
  cspMockServerUrl: [undefined, { option: true, scope: 'worker' }],
  cspMockServerOptions: [{}, { option: true, scope: 'worker' }],
  cspMockServer: [
    async ({ cspMockServerUrl, cspMockServerOptions }, use, workerInfo) => {
      const url = servedMockUrl(cspMockServerUrl);
      const { tenant, remove } = await openWorkerTenant(url, workerInfo.workerIndex, cspMockServerOptions);
      try {
        await use(tenant);
      } finally {
        await remove();
      }
    },
    { scope: 'worker' },
  ],
});
