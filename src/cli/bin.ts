#!/usr/bin/env node
/**
 * The `csp-mock` command (package.json bin). It runs main.js as `npm run build` bundles it (dist/bundle/, see
 * rolldown.config.mjs): a start reads a few files instead of finding and linking some 450 modules. Node 22+
 * keeps compiled code in its own on-disk cache once asked to; Node 20 has no such call and compiles on each
 * start. The bundle is loaded after the call (a dynamic import), so the cache covers it.
 */
import module from 'node:module';

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
// A name, not a literal: tsc type-checks main.js itself, and the bundle is made from its output.
const bundle = '../bundle/csp-mock.js';
await import(bundle);
