import { test as base } from '@playwright/test';
import type { MockOptions } from '../options.js';
import { routeCloud, type PlaywrightMock } from './route-cloud.js';

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

/** `@playwright/test`'s test with the csp-mock fixtures. */
export const test = base.extend<CspMockFixtures>({
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
});
