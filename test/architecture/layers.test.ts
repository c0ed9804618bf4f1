import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cyclesOf, importEdges, sourceFiles, type ImportEdge } from './import-graph.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/**
 * The layers of src/, top to bottom: the table of the README ("How it is built", "Imports point one way"),
 * one row per step down. A module may import its own row and the rows below it, never a row above.
 * A folder ends in '/', a file is named with its extension.
 */
/** A feature's declaration: the file feature.ts of its folder, one module for every folder. */
const FEATURE_FILE = '*/feature.ts';

const LAYERS: ReadonlyArray<{ layer: string; modules: readonly string[] }> = [
  {
    layer: 'entry',
    modules: [
      'cli/',
      'index.ts',
      'server.ts',
      'verify/',
      'intercept/',
      'remote/',
      'playwright/',
      // explore drives a sync client against a mock of its own, through the public API (startMock, connectMock).
      'explore/',
    ],
  },
  // request-locals.ts declares the res.locals keys the app's steps set (a global declaration: nothing imports it).
  { layer: 'assembly: the app', modules: ['app.ts', 'request-pipeline.ts', 'request-locals.ts'] },
  // The list of features, then each feature's declaration (its folder's feature.ts): routes, controls, hooks.
  { layer: 'assembly: the feature list', modules: ['features.ts'] },
  { layer: "assembly: each feature's declaration", modules: [FEATURE_FILE] },
  // Tenants: the registry of a served mock's tenants (each made by the server's createApp) and their routing.
  { layer: 'assembly: the tenants', modules: ['tenants/'] },
  { layer: 'assembly: the admin API', modules: ['admin/'] },
  { layer: 'assembly: what a feature is', modules: ['feature.ts'] },
  // HTTPS (the local CA, a given pair): its feature declaration and the entry points use it.
  { layer: 'HTTPS: certificates and the local CA', modules: ['tls/'] },
  // The client audit reads journal entries (types of http/) and nothing else of the server.
  { layer: 'the client audit', modules: ['audit/'] },
  // The sync oracle: a user's tree hashed from the store, compared with a folder on the caller's side.
  { layer: 'the sync oracle', modules: ['converge/'] },
  { layer: 'HAR in and out (the journal, recordings, captures)', modules: ['har/'] },
  { layer: 'assembly: the starting state', modules: ['starting-state.ts'] },
  { layer: 'assembly: options', modules: ['options.ts', 'option-table.ts'] },
  { layer: 'assembly: the mode dispatch', modules: ['mode.ts'] },
  { layer: 'assembly: the emulator', modules: ['emulator.ts'] },
  { layer: 'modes: replay', modules: ['replay/'] },
  { layer: 'modes: record', modules: ['record/'] },
  { layer: 'scenarios: the second device', modules: ['device/'] },
  { layer: 'scenarios', modules: ['scenarios/'] },
  { layer: 'scenarios: opening and seeding the store', modules: ['mock-state.ts'] },
  { layer: 'recordings', modules: ['recording/'] },
  { layer: 'routes', modules: ['rest/', 'dav/', 'cdmi/'] },
  { layer: 'edge: http', modules: ['http/'] },
  { layer: 'edge: xml', modules: ['xml/'] },
  { layer: 'core: the demo tree', modules: ['demo/'] },
  { layer: 'core: domain', modules: ['domain/'] },
  { layer: 'core: storage, files', modules: ['storage/', 'files/'] },
  // The mock's clock: read by the domain (entity times, lock expiry) and http/ (Date), set by the app's options.
  { layer: 'core: the clock', modules: ['clock/'] },
  // The one task queue (tasks one at a time, in order): the store, the state log, the second device, the recorder.
  { layer: 'core: turns', modules: ['turns/'] },
];

/** xml/ is the edge: it maps the domain's plain objects, so it may name domain types and nothing else of ours. */
const XML_EDGE = { module: 'xml/', mayImportTypesOf: ['domain/'] };

/** The inspector page runs in the browser (compiled by its own tsconfig): of the server it may name types only. */
const BROWSER_PAGE = 'admin/inspector-page/';

/**
 * The model rule: storage/ is reached through domain/ (which re-exports the model in domain/model.ts), and
 * opened by mock-state.ts. Nothing else above domain/ imports storage/.
 */
const STORAGE = { module: 'storage/', reachedFrom: ['storage/', 'domain/', 'mock-state.ts'] };

/**
 * Known exceptions, each with the reason it is still there. An entry that no longer matches an import fails
 * the test, so this list only shrinks.
 */
const ALLOWED: ReadonlyArray<{ from: string; to: string; why: string }> = [];

const TABLE_MODULES = LAYERS.flatMap((l) => l.modules);

/** The table's most specific entry for a file (a file entry beats its folder), else its top-level folder. */
function moduleOf(file: string): string {
  if (file.endsWith('/feature.ts')) return FEATURE_FILE;
  const matches = TABLE_MODULES.filter((m) => (m.endsWith('/') ? file.startsWith(m) : file === m));
  if (matches.length > 0) return matches.reduce((a, b) => (b.length > a.length ? b : a));
  return file.includes('/') ? `${file.split('/')[0]}/` : file;
}

const layerOf = (file: string): number => LAYERS.findIndex((l) => l.modules.includes(moduleOf(file)));

const describeEdge = (e: ImportEdge): string => `${e.from} -> ${e.to}${e.typeOnly ? ' (type only)' : ''}`;

const isAllowed = (e: ImportEdge): boolean => ALLOWED.some((a) => a.from === e.from && a.to === e.to);

describe('architecture: imports point one way', () => {
  const files = sourceFiles(SRC);
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
    // A module not in the table is reported by the test above, not here.
    const placed = edges.filter((e) => layerOf(e.from) >= 0 && layerOf(e.to) >= 0);
    const upward = placed.filter((e) => layerOf(e.to) < layerOf(e.from) && !isAllowed(e));
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

  it('storage/ is reached only through domain/ and mock-state.ts', () => {
    const around = edges.filter(
      (e) => moduleOf(e.to) === STORAGE.module && !STORAGE.reachedFrom.includes(moduleOf(e.from)) && !isAllowed(e),
    );
    expect(around.map(describeEdge)).toEqual([]);
  });

  it('the inspector page imports only types from the server', () => {
    const code = edges.filter((e) => e.from.startsWith(BROWSER_PAGE) && !e.to.startsWith(BROWSER_PAGE) && !e.typeOnly);
    expect(code.map(describeEdge)).toEqual([]);
  });

  // Type-only imports count too: two modules that name each other's types are one module in two files.
  it('no import cycle between files (every import, types included)', () => {
    const cycles = cyclesOf(
      files,
      edges.filter((e) => !isAllowed(e)),
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

/** The modules src/README.md's layer block names, top to bottom (parenthesised remarks left out). */
function readmeLayerModules(): string[] {
  const readme = readFileSync(fileURLToPath(new URL('../../src/README.md', import.meta.url)), 'utf8');
  const after = readme.slice(readme.indexOf('**Imports point one way**'));
  const block = /```\n([\s\S]*?)```/.exec(after)?.[1] ?? '';
  const withoutRemarks = block.replace(/\([^()]*\)/g, ' ');
  return [...withoutRemarks.matchAll(/(?:^|[\s·>;])((?:\*\/)?[a-z][\w.-]*(?:\/|\.ts))(?=$|[\s·;])/gm)].map(
    (m) => m[1]!,
  );
}

describe('architecture: the reference says what the table holds', () => {
  it("src/README.md's layer block names every module of the table, in the table's order, and nothing else", () => {
    expect(readmeLayerModules()).toEqual(TABLE_MODULES);
  });
});
