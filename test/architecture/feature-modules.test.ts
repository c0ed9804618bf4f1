import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importEdges, sourceFiles } from './import-graph.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const files = sourceFiles(SRC);
const edges = importEdges(SRC, files);

/** Every folder that declares a feature (its feature.ts). */
const FEATURE_FOLDERS = [...new Set(files.map((f) => f.split('/')[0]!))]
  .filter((top) => existsSync(join(SRC, top, 'feature.ts')))
  .map((top) => `${top}/`);

/**
 * The features checked whole here, and what each still reaches outside its folder and the list (features.ts), the
 * public API (index.ts) aside: the files named import the feature's modules. A feature is whole when its row is
 * empty; a row only shrinks, and a feature made whole adds its row.
 */
const REACH: Record<string, readonly string[]> = {
  'cdmi/': [],
  // startMock takes the tenants' settings; connectMock(url).tenant() sends their controls.
  'tenants/': ['remote/connect-mock.ts', 'server.ts'],
};

/** Files outside `folder` (and the feature list) that import one of its modules. */
function reachOf(folder: string): string[] {
  const from = edges.filter(
    (e) => e.to.startsWith(folder) && !e.from.startsWith(folder) && !['features.ts', 'index.ts'].includes(e.from),
  );
  return [...new Set(from.map((e) => e.from))].sort();
}

describe('features as modules: a feature is its folder and a line in features.ts', () => {
  it("a checked feature's files outside its folder are only the list and the known ones", () => {
    for (const folder of Object.keys(REACH)) expect(FEATURE_FOLDERS).toContain(folder);
    expect(Object.fromEntries(Object.keys(REACH).map((f) => [f, reachOf(f)]))).toEqual(REACH);
  });
});
