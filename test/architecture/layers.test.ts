import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cyclesOf, importEdges, sourceFiles, type ImportEdge } from './import-graph.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/**
 * The layers of src/, in request order (README "Architecture"). A module may import its own layer and the
 * layers below it, never one above. A folder ends in '/', a file is named with its extension.
 */
const LAYERS: ReadonlyArray<{ layer: string; modules: readonly string[] }> = [
  { layer: 'entry', modules: ['cli/', 'index.ts', 'verify/', 'remote/', 'intercept/'] },
  { layer: 'app assembly', modules: ['app.ts', 'server.ts', 'options.ts', 'mode.ts'] },
  { layer: 'middleware', modules: ['http/', 'scenarios/', 'admin/', 'record/', 'replay/'] },
  { layer: 'protocol routes', modules: ['rest/', 'dav/'] },
  // The recording format and its IO: read by record/, replay/, verify and the CLI.
  { layer: 'recording', modules: ['recording/'] },
  // What routes and recordings use of HTTP: the error type, bodies in and out, the authenticated user,
  // the secret names, the in-process request helper. None of it imports a middleware.
  {
    layer: 'http kit',
    modules: [
      'http/errors.ts',
      'http/read-body.ts',
      'http/send-content.ts',
      'http/auth.ts',
      'http/secret-names.ts',
      'http/in-process-http.ts',
    ],
  },
  { layer: 'xml edge', modules: ['xml/'] },
  // Opens the store and builds a seed into it: used by the app at start and by a scenario switch.
  { layer: 'starting state', modules: ['mock-state.ts'] },
  { layer: 'domain', modules: ['domain/', 'demo/'] },
  { layer: 'storage', modules: ['storage/', 'files/'] },
];

/** xml/ is the edge: it maps the domain's plain objects, so it may name domain types and nothing else of ours. */
const XML_EDGE = { module: 'xml/', mayImportTypesOf: ['domain/'] };

/** The browser page is compiled on its own (its own tsconfig) and imports nothing of the server. */
const NOT_SERVER_CODE = ['admin/inspector-page'];

/**
 * Known exceptions, each with the reason it is still there. An entry that no longer matches an import fails
 * the test, so this list only shrinks.
 */
const ALLOWED: ReadonlyArray<{ from: string; to: string; why: string }> = [];

const TABLE_MODULES = LAYERS.flatMap((l) => l.modules);

/** The table's most specific entry for a file (a file entry beats its folder), else its top-level folder. */
function moduleOf(file: string): string {
  const matches = TABLE_MODULES.filter((m) => (m.endsWith('/') ? file.startsWith(m) : file === m));
  if (matches.length > 0) return matches.reduce((a, b) => (b.length > a.length ? b : a));
  return file.includes('/') ? `${file.split('/')[0]}/` : file;
}

const layerOf = (file: string): number => LAYERS.findIndex((l) => l.modules.includes(moduleOf(file)));

const describeEdge = (e: ImportEdge): string => `${e.from} -> ${e.to}${e.typeOnly ? ' (type only)' : ''}`;

const isAllowed = (e: ImportEdge): boolean => ALLOWED.some((a) => a.from === e.from && a.to === e.to);

describe('architecture: imports point one way', () => {
  const files = sourceFiles(SRC, NOT_SERVER_CODE);
  const edges = importEdges(SRC, files);

  it('reads the imports of every module (the parser sees them)', () => {
    expect(files).toContain('app.ts');
    expect(edges.some((e) => e.from === 'app.ts')).toBe(true);
  });

  it('every module of src/ has a layer in the table', () => {
    const unplaced = [...new Set(files.map(moduleOf))].filter((m) => !TABLE_MODULES.includes(m));
    expect(unplaced, 'add these to LAYERS').toEqual([]);
  });

  it('no import points against the layer order', () => {
    const upward = edges.filter((e) => layerOf(e.to) < layerOf(e.from) && !isAllowed(e));
    const lines = upward.map(
      (e) => `${describeEdge(e)}: ${LAYERS[layerOf(e.from)]!.layer} imports ${LAYERS[layerOf(e.to)]!.layer}`,
    );
    expect(lines).toEqual([]);
  });

  it('xml/ imports only domain types', () => {
    const outward = edges.filter(
      (e) =>
        moduleOf(e.from) === XML_EDGE.module &&
        moduleOf(e.to) !== XML_EDGE.module &&
        !(e.typeOnly && XML_EDGE.mayImportTypesOf.includes(moduleOf(e.to))) &&
        !isAllowed(e),
    );
    expect(outward.map(describeEdge)).toEqual([]);
  });

  it('no import cycle between files (imports that exist at run time)', () => {
    const cycles = cyclesOf(
      files,
      edges.filter((e) => !e.typeOnly),
    );
    expect(cycles.map((c) => c.join(' <-> '))).toEqual([]);
  });

  it('no import cycle between folders (every import, types included)', () => {
    const between = edges
      .filter((e) => moduleOf(e.from) !== moduleOf(e.to) && !isAllowed(e))
      .map((e) => ({ from: moduleOf(e.from), to: moduleOf(e.to) }));
    const cycles = cyclesOf(files.map(moduleOf), between);
    expect(cycles.map((c) => c.join(' <-> '))).toEqual([]);
  });

  it('every allowed exception still matches an import (the list only shrinks)', () => {
    const stale = ALLOWED.filter((a) => !edges.some((e) => e.from === a.from && e.to === a.to));
    expect(stale.map((a) => `${a.from} -> ${a.to}`)).toEqual([]);
  });
});
