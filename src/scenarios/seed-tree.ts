import type { CloudStore } from '../domain/cloud-store.js';
import { seedDemoTree } from '../demo/demo-tree.js';
import type { SeedPlan } from '../mock-state.js';
import type { ResolvedOptions } from '../options.js';
import { guessMimeType } from '../domain/mime-types.js';
import type { ResolvedScenario, ResolvedSeedNode } from './types.js';

/** The configured users plus the scenario's own (a scenario's password wins for the same login). */
export function usersOf(scenario: ResolvedScenario | undefined, options: ResolvedOptions): ReadonlyMap<string, string> {
  return new Map([...options.users, ...Object.entries(scenario?.seed?.users ?? {})]);
}

/** What a fresh state holds under this scenario (if any): its seed tree(s), else the options' demo/empty choice. */
export function seedPlanOf(scenario: ResolvedScenario | undefined, options: ResolvedOptions): SeedPlan {
  const fallback = options.seed === 'demo' ? 'demo' : [];
  return {
    users: [...usersOf(scenario, options).keys()],
    tree: async (store, user) => {
      const tree = scenario?.seed?.trees[user] ?? scenario?.seed?.tree ?? fallback;
      if (tree === 'demo') await seedDemoTree(store, user);
      else await seedNodes(store, user, store.root(user).id, tree);
    },
  };
}

async function seedNodes(store: CloudStore, user: string, parentId: string, nodes: ResolvedSeedNode[]): Promise<void> {
  for (const node of nodes) {
    const created =
      node.kind === 'container'
        ? await store.createContainer(user, parentId, node.name)
        : await store.createFile(user, parentId, { name: node.name, mimeType: guessMimeType(node.name, node.mimeType), public: node.public }, node.content);
    for (const tag of node.tags) await store.annotations.addTag(user, created.id, tag);
    for (const [key, value] of Object.entries(node.metadata)) await store.annotations.setMetadata(user, created.id, key, value);
    if (node.kind === 'container') await seedNodes(store, user, created.id, node.children);
  }
}
