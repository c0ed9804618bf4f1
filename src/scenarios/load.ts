import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { FileAccessError, containedPath, readContainedFile } from '../files/contained-file.js';
import { BUILTIN_DIR, isScenarioPath, locateScenario } from './catalog.js';
import { jsonErrorMessage } from './json-error.js';
import { resolveGenerateSpec } from './generate/generate-spec.js';
import { checkScenario } from './schema-check.js';
import type { ScenarioSections } from './section.js';
import { fieldOfPlace, type SeedPlace } from './seed-walk.js';
import { ScenarioError } from './scenario-error.js';
import type {
  ResolvedScenario,
  ResolvedSeed,
  ResolvedSeedNode,
  ResolvedSeedTree,
  ScenarioDefinition,
  SeedNode,
  SeedTree,
} from './types.js';

const MAX_EXTENDS_DEPTH = 16;
/** A scenario file is small; a fixture may be large (CSP_MOCK_MAX_FILE_BYTES). */
const MAX_SCENARIO_FILE_BYTES = 16 * 1024 * 1024;
const INLINE = 'inline scenario';

/**
 * Who named the scenario. 'user': the command line, startMock or useScenario (a path anywhere is
 * fine). 'http': the admin API, which names scenarios only in ./scenarios and the built-ins, and
 * whose inline scenarios name fixtures only inside ./scenarios.
 */
export type ScenarioTrust = 'user' | 'http';

/**
 * Reads a scenario: a name or path (from `cwd`), or an inline definition. Follows `extends`,
 * reads fixtures, and throws ScenarioError naming the file and the field on any problem.
 * A file's `extends` and `fixture` paths stay inside the file's folder (symlinks resolved).
 */
export async function loadScenario(
  spec: string | ScenarioDefinition,
  cwd: string,
  sections: ScenarioSections,
  trust: ScenarioTrust = 'user',
): Promise<ResolvedScenario> {
  if (typeof spec === 'string') {
    if (trust === 'http' && isScenarioPath(spec)) {
      throw new ScenarioError(
        'scenario',
        'name',
        `"${spec}" is a path; over HTTP a scenario is named (built-in or ./scenarios), never a file path`,
      );
    }
    return loadFile(await locateScenario(spec, cwd), cwd, [], sections);
  }
  // An inline scenario from a user's code reads files from cwd freely; one sent over HTTP only inside ./scenarios.
  const dir = trust === 'http' ? join(cwd, 'scenarios') : cwd;
  const definition = checkScenario(spec, INLINE, { sections, overHttp: trust === 'http' });
  return resolveDefinition(definition, INLINE, dir, cwd, [], sections, trust === 'http' ? dir : undefined);
}

async function loadFile(
  file: string,
  cwd: string,
  chain: string[],
  sections: ScenarioSections,
): Promise<ResolvedScenario> {
  if (chain.includes(file)) throw new ScenarioError(file, 'extends', `cycle: ${[...chain, file].join(' -> ')}`);
  if (chain.length >= MAX_EXTENDS_DEPTH)
    throw new ScenarioError(file, 'extends', `more than ${MAX_EXTENDS_DEPTH} levels`);
  let text: string;
  try {
    text = isBuiltIn(file) ? await readBuiltIn(file) : await readScenarioFile(file);
  } catch (err) {
    // The file and why, without Node's stack-like "ENOENT: no such file or directory, open '...'".
    throw new ScenarioError(
      file,
      undefined,
      err instanceof FileAccessError ? err.message.slice(file.length + 2) : 'cannot read',
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    // Where, never the parser's quote of the file's first bytes: the file may not be ours to show.
    throw new ScenarioError(file, undefined, `not valid JSON: ${jsonErrorMessage(text, err as Error)}`);
  }
  const definition = checkScenario(parsed, file, { sections, shapeChecked: isBuiltIn(file) });
  return resolveDefinition(definition, file, dirname(file), cwd, [...chain, file], sections, dirname(file));
}

const readScenarioFile = async (file: string): Promise<string> =>
  (await readContainedFile(file, { maxBytes: MAX_SCENARIO_FILE_BYTES })).toString('utf8');

/**
 * The package's own scenario files, read once per process and synchronously, like its modules: they ship
 * with it and do not change under it, so every start need not read the default one again.
 */
const builtInTexts = new Map<string, string>();

function readBuiltIn(file: string): Promise<string> {
  let text = builtInTexts.get(file);
  if (text === undefined) {
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      return Promise.reject(err as Error);
    }
    builtInTexts.set(file, text);
  }
  return Promise.resolve(text);
}

/** A scenario file shipped in the package's own scenarios/ folder (not a fixture below it). */
function isBuiltIn(file: string): boolean {
  return dirname(resolve(file)) === resolve(BUILTIN_DIR);
}

async function resolveDefinition(
  def: ScenarioDefinition,
  source: string,
  dir: string,
  cwd: string,
  chain: string[],
  sections: ScenarioSections,
  /** Files named by this definition must stay inside this folder; undefined: anywhere (the user's own code). */
  confine: string | undefined,
): Promise<ResolvedScenario> {
  const parent = def.extends
    ? await loadFile(await parentFile(def.extends, source, dir, cwd, confine), cwd, chain, sections)
    : undefined;
  const seed = def.seed ? await resolveSeed(def, source, dir, confine) : undefined;
  // Each section's top-level field merges by its own rule: its own value, else the parent's, unless it says otherwise.
  const merged: Record<string, unknown> = {};
  for (const { field, merge } of sections) {
    if (field.includes('.')) continue;
    const [was, own] = [
      (parent as Record<string, unknown> | undefined)?.[field],
      (def as Record<string, unknown>)[field],
    ];
    merged[field] = merge ? merge(was, own) : (own ?? was);
  }
  return {
    ...merged,
    name: def.name ?? (source === INLINE ? 'inline' : basename(source, '.json')),
    description: def.description ?? parent?.description ?? '',
    source,
    // This scenario's rules first: the first rule that fires wins, so a child overrides its parent.
    faults: [...(def.faults ?? []), ...(parent?.faults ?? [])],
    latency: def.latency ?? parent?.latency,
    recording: def.recording ?? parent?.recording,
    seed: mergeSeeds(parent?.seed, seed),
  };
}

/** The file `extends` names: a name (this folder, ./scenarios, built-ins) or a path inside this folder. */
async function parentFile(
  spec: string,
  source: string,
  dir: string,
  cwd: string,
  confine: string | undefined,
): Promise<string> {
  const file = await locateScenario(spec, cwd, dir, `${source}: extends`);
  if (confine === undefined || !isScenarioPath(spec)) return file;
  try {
    return await containedPath(file, confine);
  } catch (err) {
    throw new ScenarioError(source, 'extends', (err as Error).message);
  }
}

function mergeSeeds(parent: ResolvedSeed | undefined, child: ResolvedSeed | undefined): ResolvedSeed | undefined {
  if (!parent || !child) return child ?? parent;
  return {
    users: { ...parent.users, ...child.users },
    // A child's tree or generated tree replaces its parent's either.
    tree: child.tree ?? (child.generate ? undefined : parent.tree),
    trees: { ...parent.trees, ...child.trees },
    generate: child.generate ?? (child.tree ? undefined : parent.generate),
  };
}

async function resolveSeed(
  def: ScenarioDefinition,
  source: string,
  dir: string,
  confine: string | undefined,
): Promise<ResolvedSeed> {
  const seed = def.seed!;
  const trees: Record<string, ResolvedSeedTree> = {};
  for (const [user, tree] of Object.entries(seed.trees ?? {}))
    trees[user] = await resolveTree(tree, `seed.trees.${user}`, source, dir, confine);
  return {
    users: { ...seed.users },
    tree: seed.tree === undefined ? undefined : await resolveTree(seed.tree, 'seed.tree', source, dir, confine),
    trees,
    // Checked by checkScenario, which every definition passed.
    generate: seed.generate === undefined ? undefined : resolveGenerateSpec(seed.generate),
  };
}

/** The tree with every file's content read, built with an explicit stack (a seed may be 10,000 levels deep). */
async function resolveTree(
  tree: SeedTree,
  field: string,
  source: string,
  dir: string,
  confine: string | undefined,
): Promise<ResolvedSeedTree> {
  if (tree === 'demo') return 'demo';
  const top: ResolvedSeedNode[] = [];
  const work: Array<{ node: SeedNode; place: SeedPlace; into: ResolvedSeedNode[] }> = [];
  const pushAll = (nodes: readonly SeedNode[], parent: SeedPlace | undefined, into: ResolvedSeedNode[]): void => {
    for (let i = nodes.length - 1; i >= 0; i--)
      work.push({ node: nodes[i]!, place: { parent, top: parent ? undefined : field, index: i }, into });
  };
  pushAll(tree, undefined, top);
  for (let item = work.pop(); item; item = work.pop()) {
    const { node, place, into } = item;
    const tags = node.tags ?? [];
    const metadata = node.metadata ?? {};
    if (node.container !== undefined) {
      const children: ResolvedSeedNode[] = [];
      into.push({ kind: 'container', name: node.container, children, tags, metadata });
      pushAll(node.children ?? [], place, children);
      continue;
    }
    into.push({
      kind: 'file',
      name: node.file!,
      content: await contentOf(node, place, source, dir, confine),
      mimeType: node.mimeType,
      public: node.public ?? false,
      tags,
      metadata,
    });
  }
  return top;
}

async function contentOf(
  node: SeedNode,
  place: SeedPlace,
  source: string,
  dir: string,
  confine: string | undefined,
): Promise<Buffer> {
  if (node.text !== undefined) return Buffer.from(node.text, 'utf8');
  if (node.base64 !== undefined) return Buffer.from(node.base64, 'base64');
  if (node.fixture === undefined) return Buffer.alloc(0);
  const path = resolve(dir, node.fixture);
  try {
    return await readContainedFile(path, { within: confine });
  } catch (err) {
    const reason = err instanceof FileAccessError ? err.message : `cannot read ${path}`;
    throw new ScenarioError(
      source,
      `${fieldOfPlace(place)}.fixture`,
      reason.startsWith(path) ? `cannot read ${reason}` : reason,
    );
  }
}
