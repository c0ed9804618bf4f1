// `npm test`'s vitest settings. Without a config vitest runs one worker on a two-core machine (cores - 1), and
// most of the suite waits on sockets and child processes rather than on the CPU: one worker per core, at least
// two. Test files share nothing: each starts its own mocks on free ports, in its own temporary folders.
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 30_000,
    // A hook that makes RSA keys in JavaScript (node-forge) or starts a server waits for the CPU like the tests do.
    hookTimeout: 120_000,
  },
});
