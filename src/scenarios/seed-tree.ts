import { seedDemoTree } from '../demo/demo-tree.js';
import type { StateBuilder } from '../domain/state-builder.js';
import type { SeedPlan } from '../mock-state.js';
import { guessMimeType } from '../domain/mime-types.js';
import type { ResolvedScenario, ResolvedSeedNode, ResolvedSeedTree, ScenarioSettings } from './types.js';
import { addGeneratedTree, generatedRootId } from './generate/generated-tree.js';
import { checkGeneratedMemory } from './generate/memory-estimate.js';

/** The configured users plus the scenario's own (a scenario's password wins for the same login). */
export function usersOf(
  scenario: ResolvedScenario | undefined,
  options: Pick<ScenarioSettings, 'users' | 'seed'>,
): ReadonlyMap<string, string> {
  return new Map([...options.users, ...Object.entries(scenario?.seed?.users ?? {})]);
}

/**
 * What a fresh state holds under this scenario (if any): its seed tree(s), else the options' demo/empty choice.
 * `built` is told how many generated objects of all users' accounts are made, every 1,000 and at the end.
 */
export function seedPlanOf(
  scenario: ResolvedScenario | undefined,
  options: Pick<ScenarioSettings, 'users' | 'seed' | 'generate'>,
  built?: (done: number, total: number) => void,
): SeedPlan {
  const fallback = options.seed === 'demo' ? 'demo' : [];
  const trees = scenario?.seed?.trees;
  const users = [...usersOf(scenario, options).keys()];
  // Logins are user-given: "constructor" must not find Object.prototype.constructor.
  const ownTree = (user: string): ResolvedSeedTree | undefined =>
    trees && Object.hasOwn(trees, user) ? trees[user] : undefined;
  // A scenario's seed (a tree or a generated one) replaces the options' choice, as it replaces the demo tree.
  const scenarioTree = scenario?.seed?.tree;
  const generate = scenarioTree === undefined ? (scenario?.seed?.generate ?? options.generate) : undefined;
  const generated = generate && users.filter((user) => !ownTree(user));
  if (generate && generated) checkGeneratedMemory(generate, generated.length);
  const total = generate && generated ? generated.length * (generate.files + generate.folders) : 0;
  let done = 0;
  const counted =
    built &&
    ((nodes: number): void => {
      done += nodes;
      built(done, total);
    });
  return {
    users,
    rootOf: generate ? (user) => (ownTree(user) ? undefined : generatedRootId(generate, user)) : undefined,
    tree: (state, user) => {
      const tree = ownTree(user) ?? scenarioTree ?? (generate ? undefined : fallback);
      if (tree === undefined) return addGeneratedTree(state, user, generate!, counted);
      if (tree === 'demo') seedDemoTree(state, user);
      else seedNodes(state, user, state.root(user).id, tree);
    },
  };
}

/** Adds a seed tree below `parentId`, iteratively (no depth limit). */
function seedNodes(state: StateBuilder, user: string, parentId: string, nodes: ResolvedSeedNode[]): void {
  const work: Array<{ parentId: string; node: ResolvedSeedNode }> = nodes.map((node) => ({ parentId, node })).reverse();
  for (let item = work.pop(); item; item = work.pop()) {
    const { node } = item;
    const info = { tags: node.tags, metadata: node.metadata };
    if (node.kind === 'container') {
      const created = state.addContainer(user, item.parentId, node.name, info);
      for (let i = node.children.length - 1; i >= 0; i--) work.push({ parentId: created.id, node: node.children[i]! });
    } else {
      state.addFile(
        user,
        item.parentId,
        { ...info, name: node.name, mimeType: guessMimeType(node.name, node.mimeType), public: node.public },
        node.content,
      );
    }
  }
}
