#!/usr/bin/env node
/**
 * The `csp-mock` command (package.json bin). Node 22+ keeps compiled code in its own on-disk cache once asked
 * to; Node 20 has no such call, and the CLI simply compiles on each start there. The CLI is loaded after the
 * call (a dynamic import), so the cache covers it.
 */
import module from 'node:module';

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await import('./main.js');
