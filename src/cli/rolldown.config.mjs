// How `npm run build:cli` makes the `csp-mock` command's code (dist/bundle/, which dist/cli/bin.js imports): tsc's
// dist/cli/main.js and everything it imports, dependencies included, as a few files instead of some 450 modules
// that Node would find, read and link one by one on every start. Plain bundling: no shims, nothing of a
// dependency's but its public entry points. What the library loads by createRequire (ajv, node-forge, nock) and
// the optional peers stay packages. Each dynamic import stays a chunk of its own, loaded when a command runs it.
// dist/bundle/ is two folders deep, as dist/cli/ is, so the paths made from import.meta.url (scenarios/,
// recordings/, the inspector page, package.json) resolve.
import { builtinModules } from 'node:module';

const EXTERNAL = ['ajv', 'node-forge', 'nock', '@playwright/test', '@mswjs/interceptors'];

const isExternal = (id) =>
  id.startsWith('node:') ||
  builtinModules.includes(id) ||
  EXTERNAL.some((name) => id === name || id.startsWith(`${name}/`));

export default {
  input: { 'csp-mock': 'dist/cli/main.js' },
  platform: 'node',
  logLevel: 'warn',
  external: isExternal,
  onLog(level, log, handler) {
    // Expected: modules imported both statically and dynamically stay where the static import puts them.
    if (log.code === 'INEFFECTIVE_DYNAMIC_IMPORT') return;
    handler(level, log);
  },
  output: { dir: 'dist/bundle', format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
};
