// How `npm run build` bundles the CLI (dist/cli-bundle/): main.cjs, run through a V8 code cache by the
// bin csp-mock.cjs (src/cli/launch.ts). CommonJS because Node 20 caches compiled code only for vm.Script.
import { fileURLToPath } from 'node:url';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const YARGS_SHIM = /[\\/]yargs[\\/]lib[\\/]platform-shims[\\/]esm\.mjs$/;
/**
 * Modules replaced, for the importers that match, by a CommonJS shim that requires the real one when first
 * needed. yargs needs cliui and string-width only to lay out help text (loading them creates an
 * Intl.Segmenter, about 10 ms) and node:assert only to report a broken invariant (about 5 ms to load);
 * depd captures a stack trace when made, which costs a re-parse of the whole bundle (about 4 ms).
 */
const SHIMS = [
  { source: 'cliui', importer: YARGS_SHIM, shim: here('./lazy-cliui.cjs') },
  { source: 'string-width', importer: YARGS_SHIM, shim: here('./lazy-string-width.cjs') },
  { source: 'assert', importer: YARGS_SHIM, shim: here('./lazy-assert.cjs') },
  { source: 'depd', importer: /./, shim: here('./lazy-depd.cjs') },
];
/**
 * Packages that do heavy work when loaded but are only called later: importers get a facade that loads the
 * package on first use. Profiled costs at load: mime-types indexes all of mime-db (about 8 ms, twice: multer
 * has its own copy); http-errors builds a class per status code (about 5 ms); qs pulls in side-channel and
 * object-inspect (about 3 ms); body-parser (with raw-body, iconv-lite, zlib) 3-5 ms. `callable`: the package is a function (createError(...)); every importer
 * only calls it or reads the listed members, so the facade forwards exactly those.
 */
const LAZY_FACADES = {
  'mime-types': {
    functions: ['lookup', 'contentType', 'extension', 'charset'],
    values: ['types', 'extensions', 'charsets'],
  },
  'http-errors': { callable: true, functions: ['isHttpError'], values: ['HttpError'] },
  qs: { functions: ['parse', 'stringify'], values: ['formats'] },
  // express only copies these four to express.json() etc.; body-parser loads raw-body, iconv-lite and zlib.
  'body-parser': { functions: ['json', 'raw', 'text', 'urlencoded'], values: [] },
};
const FACADE = '\0lazy-facade:';

function facadeSource(realPath, { callable = false, functions, values }) {
  const members = [
    ...functions.map(
      (name) =>
        `Object.defineProperty(facade, '${name}', { enumerable: true, value: (...args) => load().${name}(...args) });`,
    ),
    ...values.map(
      (name) => `Object.defineProperty(facade, '${name}', { enumerable: true, get: () => load().${name} });`,
    ),
  ];
  return [
    'let real;',
    `const load = () => (real ??= require(${JSON.stringify(realPath)}));`,
    callable ? 'const facade = function (...args) { return load().apply(this, args); };' : 'const facade = {};',
    ...members,
    'module.exports = facade;',
    '',
  ].join('\n');
}

const lazyLoading = {
  name: 'lazy-loading',
  async resolveId(source, importer) {
    const shim = SHIMS.find((s) => s.source === source && importer && importer !== s.shim && s.importer.test(importer));
    if (shim) return shim.shim;
    if (source in LAZY_FACADES && !importer?.startsWith(FACADE)) {
      const real = await this.resolve(source, importer, { skipSelf: true });
      return real ? `${FACADE}${source}:${real.id}` : null;
    }
    return null;
  },
  load(id) {
    if (!id.startsWith(FACADE)) return null;
    const rest = id.slice(FACADE.length);
    const name = Object.keys(LAZY_FACADES).find((key) => rest.startsWith(`${key}:`));
    return facadeSource(rest.slice(name.length + 1), LAZY_FACADES[name]);
  },
};

const cli = {
  input: { main: 'dist/cli/main.js' },
  platform: 'node',
  logLevel: 'warn',
  onLog(level, log, handler) {
    // Expected: record/replay modules are also imported statically by others, so they stay in main.cjs.
    if (log.code === 'INEFFECTIVE_DYNAMIC_IMPORT') return;
    // yargs reads import.meta.resolve only for a config's "extends", which csp-mock never passes it.
    if (log.code === 'EMPTY_IMPORT_META' && /apply-extends/.test(log.id ?? '')) return;
    handler(level, log);
  },
  plugins: [lazyLoading],
  output: {
    dir: 'dist/cli-bundle',
    format: 'cjs',
    entryFileNames: '[name].cjs',
    // One file: a chunk split off (shared code, or record/replay loaded later) is loaded by plain
    // require, outside the code cache; the shared one cost 3 ms of every start.
    codeSplitting: false,
    // Reading the bundle was 8-12 ms of a start: ASCII only (a one-byte string in V8), no comments or
    // indentation. Names are kept (no mangling), so stack traces stay readable.
    charset: 'ascii',
    comments: false,
    minify: { compress: false, mangle: false, codegen: { removeWhitespace: true } },
  },
};

/** The bin: a separate build, so it shares no chunk (not even the bundler's runtime) with main.cjs. */
const launcher = {
  input: { 'csp-mock': 'dist/cli/launch.js' },
  platform: 'node',
  logLevel: 'warn',
  output: { dir: 'dist/cli-bundle', format: 'cjs', entryFileNames: '[name].cjs' },
};

export default [cli, launcher];
