import { readFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { locateScenario } from './catalog.js';
import { jsonErrorMessage } from './json-error.js';
import { checkScenario } from './schema-check.js';
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
export const INLINE = 'inline scenario';

/**
 * Reads a scenario: a name or path (from `cwd`), or an inline definition. Follows `extends`,
 * reads fixtures, and throws ScenarioError naming the file and the field on any problem.
 */
export async function loadScenario(spec: string | ScenarioDefinition, cwd: string): Promise<ResolvedScenario> {
  if (typeof spec === 'string') return loadFile(await locateScenario(spec, cwd), cwd, []);
  return resolveDefinition(checkScenario(spec, INLINE), INLINE, cwd, cwd, []);
}

async function loadFile(file: string, cwd: string, chain: string[]): Promise<ResolvedScenario> {
  if (chain.includes(file)) throw new ScenarioError(file, 'extends', `cycle: ${[...chain, file].join(' -> ')}`);
  if (chain.length >= MAX_EXTENDS_DEPTH) throw new ScenarioError(file, 'extends', `more than ${MAX_EXTENDS_DEPTH} levels`);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    // The file and why, without Node's stack-like "ENOENT: no such file or directory, open '...'".
    const code = (err as NodeJS.ErrnoException).code;
    throw new ScenarioError(file, undefined, code === 'ENOENT' ? 'no such file' : `cannot read (${code ?? (err as Error).message})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ScenarioError(file, undefined, `not valid JSON: ${jsonErrorMessage(text, err as Error)}`);
  }
  const definition = checkScenario(parsed, file);
  return resolveDefinition(definition, file, dirname(file), cwd, [...chain, file]);
}

async function resolveDefinition(
  def: ScenarioDefinition,
  source: string,
  dir: string,
  cwd: string,
  chain: string[],
): Promise<ResolvedScenario> {
  const parent = def.extends
    ? await loadFile(await locateScenario(def.extends, cwd, dir, `${source}: extends`), cwd, chain)
    : undefined;
  const seed = def.seed ? await resolveSeed(def, source, dir) : undefined;
  const name = def.name ?? (source === INLINE ? 'inline' : basename(source, '.json'));
  return {
    name,
    description: def.description ?? parent?.description ?? '',
    source,
    // This scenario's rules first: the first rule that fires wins, so a child overrides its parent.
    faults: [...(def.faults ?? []), ...(parent?.faults ?? [])],
    latency: def.latency ?? parent?.latency,
    recording: def.recording ?? parent?.recording,
    seed: mergeSeeds(parent?.seed, seed),
  };
}

function mergeSeeds(parent: ResolvedSeed | undefined, child: ResolvedSeed | undefined): ResolvedSeed | undefined {
  if (!parent || !child) return child ?? parent;
  return {
    users: { ...parent.users, ...child.users },
    tree: child.tree ?? parent.tree,
    trees: { ...parent.trees, ...child.trees },
  };
}

async function resolveSeed(def: ScenarioDefinition, source: string, dir: string): Promise<ResolvedSeed> {
  const seed = def.seed!;
  const trees: Record<string, ResolvedSeedTree> = {};
  for (const [user, tree] of Object.entries(seed.trees ?? {})) trees[user] = await resolveTree(tree, `seed.trees.${user}`, source, dir);
  return {
    users: { ...seed.users },
    tree: seed.tree === undefined ? undefined : await resolveTree(seed.tree, 'seed.tree', source, dir),
    trees,
  };
}

async function resolveTree(tree: SeedTree, field: string, source: string, dir: string): Promise<ResolvedSeedTree> {
  if (tree === 'demo') return 'demo';
  const nodes: ResolvedSeedNode[] = [];
  for (const [i, node] of tree.entries()) nodes.push(await resolveNode(node, `${field}[${i}]`, source, dir));
  return nodes;
}

async function resolveNode(node: SeedNode, field: string, source: string, dir: string): Promise<ResolvedSeedNode> {
  const tags = node.tags ?? [];
  const metadata = node.metadata ?? {};
  if (node.container !== undefined) {
    const children = await resolveTree(node.children ?? [], `${field}.children`, source, dir);
    return { kind: 'container', name: node.container, children: children === 'demo' ? [] : children, tags, metadata };
  }
  return {
    kind: 'file',
    name: node.file!,
    content: await contentOf(node, field, source, dir),
    mimeType: node.mimeType,
    public: node.public ?? false,
    tags,
    metadata,
  };
}

async function contentOf(node: SeedNode, field: string, source: string, dir: string): Promise<Buffer> {
  if (node.text !== undefined) return Buffer.from(node.text, 'utf8');
  if (node.base64 !== undefined) return Buffer.from(node.base64, 'base64');
  if (node.fixture === undefined) return Buffer.alloc(0);
  const path = resolve(dir, node.fixture);
  try {
    return await readFile(path);
  } catch (err) {
    throw new ScenarioError(source, `${field}.fixture`, `cannot read ${path}: ${(err as Error).message}`);
  }
}
