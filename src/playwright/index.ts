/**
 * `csp-mock/playwright`: `@playwright/test`'s `test` with an isolated mock per test (`cspMock`), and its
 * `expect`. Loads `@playwright/test` (an optional peer dependency), which `csp-mock` itself never does.
 */
export { expect } from '@playwright/test';
export { test, DEFAULT_BASE_URL, type CspMockFixtures, type CspMockTestOptions } from './fixtures.js';
export { routeCloud, type PlaywrightMock, type RoutedCloud } from './route-cloud.js';
