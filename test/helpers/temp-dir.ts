import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/** A fresh temporary folder per test (named csp-mock-<prefix>-*), removed afterwards. */
export function useTempDir(prefix = 'test'): { readonly path: string } {
  const holder: { path?: string } = {};
  beforeEach(async () => {
    holder.path = await mkdtemp(join(tmpdir(), `csp-mock-${prefix}-`));
  });
  afterEach(async () => {
    if (holder.path) await rm(holder.path, { recursive: true, force: true });
  });
  return {
    get path() {
      return holder.path!;
    },
  };
}
