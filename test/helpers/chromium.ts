// How every browser test launches Debian's chromium (.ci/run installs it; no browser is downloaded):
// headless, no sandbox or GPU, and quiet on the network besides the page's own requests.
import { chromium, type Browser, type BrowserContext, type LaunchOptions } from 'playwright-core';
import { requireProgram } from '../peers/peer-process.js';

/** The flags every launch shares; the Playwright runner's config lists the same (it cannot import test helpers). */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The executable's path; throws with the Debian package to install when it is missing. */
export function chromiumPath(): string {
  return requireProgram('chromium');
}

/** Launch options with the shared flags plus `extraArgs`. */
export function chromiumLaunchOptions(extraArgs: readonly string[] = []): LaunchOptions {
  return { executablePath: chromiumPath(), headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] };
}

/** A headless browser with the shared flags plus `extraArgs`. */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions(extraArgs));
}

/** A persistent context in `profile` (a fresh temporary folder the caller removes). */
export function launchChromiumProfile(
  profile: string,
  options: { extraArgs?: readonly string[]; viewport?: { width: number; height: number } } = {},
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, {
    ...chromiumLaunchOptions(options.extraArgs),
    ...(options.viewport ? { viewport: options.viewport } : {}),
  });
}
