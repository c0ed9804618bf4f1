import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importEdges, sourceFiles } from './import-graph.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const files = sourceFiles(SRC);
const edges = importEdges(SRC, files);

/** The modules of src/ that loading `entry` loads with it: its imports that run, less the `import()`s. */
function loadedWith(entry: string): string[] {
  const loaded = new Set([entry]);
  for (const file of loaded) for (const e of edges) if (e.from === file && !e.typeOnly && !e.dynamic) loaded.add(e.to);
  return [...loaded].sort();
}

const within = (modules: string[], folders: readonly string[]): string[] =>
  modules.filter((m) => folders.some((f) => m.startsWith(f)));

describe('start-up: a mock loads what its run uses, when it uses it', () => {
  it('startMock loads no WebDAV, CDMI, admin routes, record, replay or recording module until a request needs one', () => {
    const loaded = loadedWith('server.ts');
    expect(loaded).toContain('app.ts');
    expect(loaded).toContain('rest/index.ts');
    const lazy = within(loaded, ['dav/', 'cdmi/', 'record/', 'replay/', 'recording/', 'tls/', 'admin/']);
    // The guard runs on every /__admin request before the admin routes are loaded; the controls and each feature's
    // declaration (its feature.ts) are the features' list; the REST namespace names WebDAV paths.
    const atStart = ['admin/admin-guard.ts', 'admin/core-controls.ts', 'admin/journal-filter.ts', 'dav/paths.ts'];
    expect(lazy.filter((m) => !atStart.includes(m) && !m.endsWith('/feature.ts'))).toEqual([]);
  });
});
