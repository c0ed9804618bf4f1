import { resolve } from 'node:path';
import { SCENARIO_SECTIONS } from '../features.js';
import { loadScenario } from '../scenarios/load.js';
import type {
  ResolvedSeedNode,
  ResolvedSeedTree,
  ScenarioDefinition,
  ScenarioSeed,
  SeedNode,
  SeedTree,
} from '../scenarios/types.js';

function seedNode(node: ResolvedSeedNode): SeedNode {
  const { tags, metadata } = node;
  if (node.kind === 'container') return { container: node.name, children: node.children.map(seedNode), tags, metadata };
  const text = node.content.toString('utf8');
  // Text when the bytes are UTF-8 (readable in the journal and the inspector), else base64.
  const content = Buffer.from(text, 'utf8').equals(node.content)
    ? { text }
    : { base64: node.content.toString('base64') };
  return { file: node.name, ...content, mimeType: node.mimeType, public: node.public, tags, metadata };
}

const seedTree = (tree: ResolvedSeedTree): SeedTree => (tree === 'demo' ? 'demo' : tree.map(seedNode));

/**
 * A scenario file of the caller's, as one self-contained inline scenario for a mock that may run elsewhere:
 * read here like `serve --scenario PATH` reads it (its `extends` merged, its fixtures read, each inside the
 * file's folder), with every file's bytes inline. The mock then reads no file on the caller's behalf.
 */
export async function scenarioDocument(path: string, baseDir: string): Promise<ScenarioDefinition> {
  const scenario = await loadScenario(resolve(baseDir, path), baseDir, SCENARIO_SECTIONS);
  const document: ScenarioDefinition = { name: scenario.name, description: scenario.description };
  if (scenario.faults.length) document.faults = scenario.faults;
  if (scenario.latency) document.latency = scenario.latency;
  if (scenario.network) document.network = scenario.network;
  if (scenario.recording) document.recording = scenario.recording;
  if (scenario.seed) {
    const seed: ScenarioSeed = { users: scenario.seed.users };
    if (scenario.seed.tree !== undefined) seed.tree = seedTree(scenario.seed.tree);
    seed.trees = Object.fromEntries(Object.entries(scenario.seed.trees).map(([u, t]) => [u, seedTree(t)]));
    document.seed = seed;
  }
  return document;
}
