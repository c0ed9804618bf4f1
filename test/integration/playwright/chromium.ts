import { requireProgram } from '../../peers/peer-process.js';

/** Debian's chromium (.ci/run installs it): no browser is downloaded. */
export const CHROMIUM = requireProgram('chromium');

/** How every test here launches it: headless, and quiet on the network besides the page's own requests. */
export const CHROMIUM_LAUNCH = {
  executablePath: CHROMIUM,
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
