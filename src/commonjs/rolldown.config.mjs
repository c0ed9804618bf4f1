// How `npm run build:cjs` makes the CommonJS build (dist/cjs/index.cjs) that `require('csp-mock')` loads:
// a default jest setup runs test files as CommonJS in its own module registry, which cannot load ES
// modules. The library is one file, dist/cjs/library.cjs, from tsc's dist/index.js, under two thin entries:
// index.cjs (`csp-mock`) and playwright.cjs (`csp-mock/playwright`, the only one that requires
// @playwright/test), so both share one copy of it. The dependencies that are CommonJS (or ship a CommonJS
// build) stay external, loaded from node_modules as the user's other requires are; the ES-module-only
// ones (lowdb, steno) are bundled in. dist/cjs/ is two folders deep, as dist/index.js's modules are one
// or two, so the paths made from import.meta.url (scenarios/, recordings/, the inspector page) resolve.
import { builtinModules } from 'node:module';

/** Packages the bundle requires at run time (each loads under require: CommonJS, or a "require" export). */
const EXTERNAL = [
  'express',
  'multer',
  'busboy',
  'mime-types',
  'ajv',
  'fast-xml-parser',
  'lru-cache',
  'node-forge',
  'nock',
  '@playwright/test',
  '@mswjs/interceptors',
];

const isExternal = (id) =>
  id.startsWith('node:') ||
  builtinModules.includes(id) ||
  EXTERNAL.some((name) => id === name || id.startsWith(`${name}/`));

export default {
  input: { index: 'dist/index.js', playwright: 'dist/playwright/index.js' },
  platform: 'node',
  logLevel: 'warn',
  external: isExternal,
  onLog(level, log, handler) {
    // Expected: record/replay modules are also imported statically by others, so they stay in the one file.
    if (log.code === 'INEFFECTIVE_DYNAMIC_IMPORT') return;
    handler(level, log);
  },
  output: {
    dir: 'dist/cjs',
    format: 'cjs',
    entryFileNames: '[name].cjs',
    // One chunk holds the library, so both entries share one copy of it (one RequestWaitTimeout class...),
    // loaded whole as before; each entry is a thin file over it.
    chunkFileNames: '[name].cjs',
    codeSplitting: { groups: [{ name: 'library', test: (id) => !/[\\/]dist[\\/]playwright[\\/]/.test(id) }] },
  },
};
