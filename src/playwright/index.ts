/**
 * `csp-mock/playwright`: `@playwright/test`'s `test` with an isolated mock per test (`cspMock`), a tenant of a
 * served mock per worker (`cspMockServer`), and its `expect`. Loads `@playwright/test` (an optional peer
 * dependency), which `csp-mock` itself never does.
 */
export { expect } from '@playwright/test';
export {
  test,
  DEFAULT_BASE_URL,
  type CspMockFixtures,
  type CspMockTestOptions,
  type CspMockWorkerFixtures,
  type CspMockWorkerOptions,
} from './fixtures.js';
export { routeCloud, type PlaywrightMock, type RoutedCloud } from './route-cloud.js';
export type { ServedTenant } from './served-tenant.js';
export type { RemoteMock } from '../remote/connect-mock.js';
export type { TenantOptions } from '../remote/tenant-calls.js';
