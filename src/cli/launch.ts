#!/usr/bin/env node
/**
 * The `csp-mock` command (package.json bin: this file bundled to dist/cli-bundle/csp-mock.cjs). It runs the
 * bundled CLI (dist/cli-bundle/main.cjs) through a V8 code cache kept beside it, so a start does not compile
 * about 2 MB of JavaScript again: the compile was a third of `serve`'s cold start (issue 9). Node 22 has
 * module.enableCompileCache for this; Node 20 has only vm.Script's cachedData, hence this file.
 *
 * The cache is code, as trusted as the bundle: it sits beside it (dist/cli-bundle/compile-cache/), or in the
 * folder CSP_MOCK_COMPILE_CACHE names (one only its user can write; made with mode 0700);
 * CSP_MOCK_COMPILE_CACHE=off turns it off. Where the folder is not writable the CLI works the same and
 * compiles on every start.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

// Not new URL(..., import.meta.url): the bundler would take that for an import and load main.cjs itself.
const BUNDLE = join(dirname(fileURLToPath(import.meta.url)), '..', 'cli-bundle', 'main.cjs');
const SETTING = process.env['CSP_MOCK_COMPILE_CACHE'];
const CACHE_DIR = SETTING && SETTING !== 'off' ? resolve(SETTING) : join(dirname(BUNDLE), 'compile-cache');
/** One cache per command: each compiles different code, and a cache holds what its first run compiled. */
const COMMANDS = new Set([
  'serve',
  'record',
  'replay',
  'verify',
  'scenarios',
  'scenario',
  'reset',
  'requests',
  'state',
]);

/** The file a cache for this Node, this build of the bundle and this command lives in. */
function cacheFileFor(bundleSize: number, bundleMtimeMs: number): string {
  const word = process.argv.slice(2).find((arg) => !arg.startsWith('-'));
  const command = word !== undefined && COMMANDS.has(word) ? word : 'other';
  // V8 checks its own version and flags, and of the source only its length: the key adds the build.
  const build = `${bundleSize}-${Math.trunc(bundleMtimeMs)}`;
  return join(CACHE_DIR, `${command}.${process.version}-${process.arch}.${build}.v8cache`);
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Writes the cache whole or not at all (tmp + rename: parallel starts never read half a file), then drops older ones. */
function writeCache(file: string, data: Buffer): void {
  try {
    mkdirSync(CACHE_DIR, { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, data);
    renameSync(tmp, file);
    const command = file.slice(CACHE_DIR.length + 1).split('.')[0];
    for (const name of readdirSync(CACHE_DIR)) {
      if (name.startsWith(`${command}.`) && join(CACHE_DIR, name) !== file && !name.endsWith('.tmp'))
        rmSync(join(CACHE_DIR, name), { force: true });
    }
  } catch {
    // A read-only install: the CLI works the same, it only compiles on every start.
  }
}

const stat = statSync(BUNDLE);
const useCache = SETTING !== 'off';
const cacheFile = cacheFileFor(stat.size, stat.mtimeMs);
const cachedData = useCache ? readCache(cacheFile) : undefined;
// A shebang is not valid inside a function body; "//" keeps the length, which V8's cache check compares.
const source = readFileSync(BUNDLE, 'utf8').replace(/^#!/, '//');
const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
  filename: BUNDLE,
  cachedData,
});
if (useCache && (cachedData === undefined || script.cachedDataRejected)) {
  // At exit the cache also holds the functions this run compiled lazily (the command's whole start).
  process.once('exit', () => writeCache(cacheFile, script.createCachedData()));
}
const bundleModule = new Module(BUNDLE);
bundleModule.filename = BUNDLE;
bundleModule.loaded = true;
const bundleRequire = createRequire(BUNDLE);
const run = script.runInThisContext() as (...args: unknown[]) => void;
run(bundleModule.exports, bundleRequire, bundleModule, BUNDLE, dirname(BUNDLE));
