// The inspector in Chromium, as its browser tests open it: one profile for the file, and for each test a fresh
// mock and tab; a console error the test did not take away fails the test.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { launchChromiumProfile } from './chromium.js';

export interface InspectorTab {
  /** The test's mock and its tab (set before each test). */
  mock: RunningMock;
  page: Page;
  /** The tab's console errors so far: a test that expects one removes it. */
  consoleErrors: string[];
  /** The file's Chromium profile folder, removed after the file. */
  profile: string;
}

/** Registers the hooks of an inspector test file and returns the current test's tab (its fields are set before each test). */
export function useInspectorTabs(): InspectorTab {
  const tab = {} as InspectorTab;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    tab.profile = await mkdtemp(join(tmpdir(), 'csp-mock-chromium-'));
    context = await launchChromiumProfile(tab.profile, { viewport: { width: 1280, height: 800 } });
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    if (tab.profile) await rm(tab.profile, { recursive: true, force: true });
  });
  beforeEach(async () => {
    tab.mock = await startMock({ log: () => undefined });
    tab.page = await context!.newPage();
    tab.consoleErrors = [];
    tab.page.on('console', (message) => {
      if (message.type() === 'error') tab.consoleErrors.push(message.text());
    });
    tab.page.on('pageerror', (error) => tab.consoleErrors.push(error.message));
  });
  afterEach(async () => {
    const errors = tab.consoleErrors;
    await tab.page.close();
    await tab.mock.close();
    expect(errors, 'console errors').toEqual([]);
  });
  return tab;
}
