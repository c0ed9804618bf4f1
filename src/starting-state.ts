import type { CloudStore } from './domain/cloud-store.js';
import type { StateBuilder } from './domain/state-builder.js';
import { buildSeed, openStore, type SeedPlan } from './mock-state.js';
import type { ResolvedOptions } from './options.js';
import type { RecordedTree } from './recording/recorded-tree.js';
import type * as RecordedSeeding from './recording/seed-from-recording.js';
import { seedPlanOf } from './scenarios/seed-tree.js';
import type { ResolvedScenario } from './scenarios/types.js';

/**
 * The one owner of the state a mock starts from and a reset goes back to. It decides the plan: the
 * users and seed tree of the options and the active scenario (scenarios/seed-tree.ts, whose "demo" tree
 * is demo/demo-tree.ts) and, when replay misses go to the emulator, the trees the recording shows in
 * place of those users' seeds (recording/seed-from-recording.ts). mock-state.ts only carries a plan out.
 * The app opens the store through it; every reset and scenario switch builds its state here, whole,
 * and swaps it in as one transaction.
 */
export class StartingState {
  readonly #options: ResolvedOptions;
  #recorded: { tree: RecordedTree; seeding: typeof RecordedSeeding } | undefined;

  constructor(options: ResolvedOptions) {
    this.#options = options;
  }

  /**
   * Replay with misses emulated: the users the recording shows start from what it shows (`seeding`: its
   * module, loaded by the mode that needs it).
   */
  useRecordedTree(tree: RecordedTree, seeding: typeof RecordedSeeding): void {
    this.#recorded = { tree, seeding };
  }

  /** What a fresh state holds under `scenario`; `now` stamps recorded objects. */
  plan(scenario: ResolvedScenario | undefined, now: number): SeedPlan {
    const report = this.#options.onProgress;
    const built =
      report &&
      ((done: number, total: number) =>
        report({ task: 'generate', done, total, unit: 'objects', finished: done === total }));
    const base = seedPlanOf(scenario, this.#options, built);
    if (!this.#recorded) return base;
    const { tree: recorded, seeding } = this.#recorded;
    const users = seeding.recordedUsers(recorded);
    return {
      users: [...new Set([...base.users, ...users])],
      rootOf: (user) => recorded.roots.get(user),
      tree: (state, user) => {
        if (users.has(user)) seeding.addRecordedTree(state, recorded, user, state.root(user).id, now);
        else return base.tree?.(state, user);
      },
    };
  }

  /** Opens the store: a new state is built from the plan; a kept one (--data) gets the recorded trees. */
  async open(scenario: ResolvedScenario | undefined): Promise<CloudStore> {
    const report = this.#options.onProgress;
    const read =
      report &&
      ((done: number, total: number) => report({ task: 'load', done, total, unit: 'bytes', finished: done === total }));
    const { store, seeded } = await openStore(
      { ...this.#options, onRead: read },
      this.plan(scenario, this.#options.clock.seconds()),
    );
    if (!seeded && this.#recorded) {
      try {
        await this.#recorded.seeding.seedFromRecordedTree(store, this.#recorded.tree);
      } catch (err) {
        await store.close();
        throw err;
      }
    }
    return store;
  }

  /** The state under `scenario` built aside (blobs written), for a reset or a switch to swap in. */
  build(store: CloudStore, scenario: ResolvedScenario | undefined): Promise<StateBuilder> {
    return buildSeed(store, this.plan(scenario, store.now()));
  }
}
