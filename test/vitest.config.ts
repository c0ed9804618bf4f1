// `npm test`'s vitest settings. Without a config vitest runs one worker on a two-core machine (cores - 1), and
// most of the suite waits on sockets and child processes rather than on the CPU: one worker per core, at least
// two. Test files share nothing on disk or on the network: each starts its own mocks on free ports, in its own
// temporary folders.
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The files that change what the whole process shares while they run: nock's interception of http and fetch
 * (interceptCloud), the current folder and environment of the README examples' scripts and commands (run side by
 * side, in turns), and the packaging test (its installs, not its imports, are its cost). Each gets a fresh module
 * graph.
 */
const OWN_PROCESS_STATE = [
  'test/integration/readme-examples.test.ts',
  'test/integration/packaging/*.test.ts',
  'test/integration/api/mock-controls.test.ts',
  'test/integration/api/wait-for-request.test.ts',
  'test/integration/record-replay/intercept-cloud*.test.ts',
  'test/integration/record-replay/record-through-nock-upstream.test.ts',
  'test/integration/playwright/route-cloud.test.ts',
];

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    maxWorkers: Math.max(2, availableParallelism()),
    // Each file its own runtime folder for the addresses control commands find (see the file).
    setupFiles: ['test/helpers/runtime-folder-per-file.ts'],
    testTimeout: 30_000,
    // A hook that makes RSA keys in JavaScript (node-forge) or starts a server waits for the CPU like the tests do.
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        // Loading src/ and the dependencies again for every file was a third of the suite's CPU. The other files
        // put back what they change (env, umask, timers, spies) in a finally or an afterEach, so a worker keeps
        // its modules from one file to the next.
        test: { name: 'shared', exclude: [...configDefaults.exclude, ...OWN_PROCESS_STATE], isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: OWN_PROCESS_STATE } },
    ],
  },
});
