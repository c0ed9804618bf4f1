import type { RequestHandler, Response } from 'express';
import { isAbsolute } from 'node:path';
import type { CloudStore } from '../domain/cloud-store.js';
import type { StateBuilder } from '../domain/state-builder.js';
import { markScenario, type RequestJournal } from '../http/journal.js';
import { ActiveScenario } from './active-scenario.js';
import { loadScenario, type ScenarioTrust } from './load.js';
import { PendingDelays } from './pending-delays.js';
import { ScenarioError } from './scenario-error.js';
import type { ScenarioSections } from './section.js';
import { usersOf } from './seed-tree.js';
import { SwitchGate } from './switch-gate.js';
import type { ReplayHandlerFactory, ResolvedScenario, ScenarioDefinition, ScenarioSettings } from './types.js';

/** Builds the state a reset or a switch to `scenario` swaps in (the app's StartingState). */
export interface StateSource {
  build(store: CloudStore, scenario: ResolvedScenario): Promise<StateBuilder>;
}

export interface ScenarioRuntimeDeps {
  store: CloudStore;
  starting: StateSource;
  options: ScenarioSettings;
  journal: RequestJournal;
  replayHandler: ReplayHandlerFactory | undefined;
  /** Where names and relative paths are looked up (./scenarios). */
  cwd: string;
  /** The features' parts of a scenario. */
  sections: ScenarioSections;
}

/** The active scenario a request was admitted under (set by the runtime's admit step). */
export function activeOf(res: Response): ActiveScenario {
  return res.locals.scenario!;
}

/**
 * Lets a switch or reset go ahead without waiting for this request: it is only holding its
 * connection (a hang, a stalled upload) and will not touch the state again. The switch, or the
 * mock's close, ends the connection with `end`.
 */
export function leaveSwitchGate(res: Response, end: () => void): void {
  res.locals.leaveSwitchGate?.(end);
}

/** Calls `fn` if a switch or reset begins while this request is in flight. */
export function onSwitch(res: Response, fn: () => void): void {
  res.locals.onSwitch?.(fn);
}

/** Holds the active scenario and switches it atomically; reset goes back to its seed. */
export class ScenarioRuntime {
  readonly delays = new PendingDelays();
  readonly #deps: ScenarioRuntimeDeps;
  readonly #gate: SwitchGate;
  readonly #listeners = new Set<() => void>();
  #active: ActiveScenario;
  #users: ReadonlyMap<string, string>;

  private constructor(active: ActiveScenario, deps: ScenarioRuntimeDeps) {
    this.#deps = deps;
    this.#gate = new SwitchGate(deps.options.switchGraceMs);
    this.#active = active;
    this.#users = usersOf(active.scenario, deps.options);
  }

  /** Arms the initial scenario (loading its recording, if it names one). */
  static async create(initial: ResolvedScenario, deps: ScenarioRuntimeDeps): Promise<ScenarioRuntime> {
    return new ScenarioRuntime(await armScenario(initial, deps.replayHandler), deps);
  }

  get scenario(): ResolvedScenario {
    return this.#active.scenario;
  }

  /** The active scenario's armed fault rules and replayer, for read-only views (the inspector). */
  get active(): Pick<ActiveScenario, 'rules' | 'replay' | 'faultsPreflights'> {
    return this.#active;
  }

  /** Hears every switch and reset (after it took effect); returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }

  /** The logins and passwords Basic auth accepts under the active scenario. */
  users(): ReadonlyMap<string, string> {
    return this.#users;
  }

  /**
   * Switches to another scenario (name, path or inline definition). Its faults start fresh; if it
   * declares a seed, the state is replaced by that seed. Nothing changes when loading fails.
   */
  async use(spec: string | ScenarioDefinition, trust: ScenarioTrust = 'user'): Promise<ResolvedScenario> {
    const scenario = await loadScenario(spec, this.#deps.cwd, this.#deps.sections, trust);
    const active = await armScenario(scenario, this.#deps.replayHandler);
    // The scenario's clock first, so its seed is stamped with its time; put back if the switch fails.
    const clock = this.#deps.options.clock;
    const before = clock.memo();
    clock.apply(scenario.clock);
    try {
      // The new state is built aside first: a refused seed (a bad name or tag) changes nothing at all.
      const built = scenario.seed ? await this.#deps.starting.build(this.#deps.store, scenario) : undefined;
      await this.#swap(built, async () => {
        this.#active = active;
        this.#users = usersOf(scenario, this.#deps.options);
      });
    } catch (err) {
      clock.restore(before);
      // A section's error while the state is built (a generated seed too big for memory) is the scenario's fault.
      for (const section of this.#deps.sections) {
        const problem = section.problemOf?.(err);
        if (problem)
          throw new ScenarioError(
            scenario.source,
            problem.field ? `${section.field}.${problem.field}` : section.field,
            problem.problem,
          );
      }
      throw err;
    }
    this.#deps.options.log(`scenario: ${scenario.name} (${scenario.source})`);
    this.#changed();
    return scenario;
  }

  /**
   * Reads the active scenario's file again and swaps in its faults, latency and recording at once
   * (counters start fresh); the state is left alone. Says whether the seed changed (a reset applies it).
   */
  async reload(): Promise<{ scenario: ResolvedScenario; seedChanged: boolean }> {
    const before = this.#active.scenario;
    if (!isAbsolute(before.source))
      throw new ScenarioError(before.source, undefined, 'an inline scenario has no file to reload');
    const scenario = await loadScenario(before.source, this.#deps.cwd, this.#deps.sections);
    const active = await armScenario(scenario, this.#deps.replayHandler);
    await this.#gate.exclusive(async () => {
      this.#active = active;
      this.#users = usersOf(scenario, this.#deps.options);
      // An edit elsewhere in the file leaves a moved clock alone; a changed `clock` applies at once.
      if (JSON.stringify(before.clock) !== JSON.stringify(scenario.clock))
        this.#deps.options.clock.apply(scenario.clock);
    });
    return { scenario, seedChanged: JSON.stringify(before.seed) !== JSON.stringify(scenario.seed) };
  }

  /** State back to the active scenario's seed, its clock as the scenario (or the options) set it; fault counters and the journal cleared. */
  async reset(): Promise<void> {
    const scenario = this.#active.scenario;
    this.#deps.options.clock.apply(scenario.clock);
    const built = await this.#deps.starting.build(this.#deps.store, scenario);
    await this.#swap(built, async () => {
      this.#active = await armScenario(scenario, this.#deps.replayHandler);
      this.#deps.journal.clear();
    });
    this.#changed();
  }

  /** With no request in flight: the built state swapped in (atomically), then `then`; a failure drops the build. */
  async #swap(built: StateBuilder | undefined, then: () => Promise<void>): Promise<void> {
    try {
      await this.#gate.exclusive(async () => {
        if (built) await this.#deps.store.replaceState(built);
        await then();
      });
    } catch (err) {
      await built?.discard();
      throw err;
    }
  }

  /** Admits a request under the current scenario, which it keeps until its response is done. */
  admit(): RequestHandler {
    return (_req, res, next) => {
      // No switch under way (the common case): admitted at once, without a promise.
      const now = this.#gate.enterNow(() => res.destroy());
      if (now) return this.#admitted(res, now, next);
      // A request a switch gives up waiting for loses its connection (the gate's grace period).
      void this.#gate.enter(() => res.destroy()).then((leave) => this.#admitted(res, leave, next));
    };
  }

  #admitted(res: Response, leave: () => void, next: () => void): void {
    // 'close' comes after 'finish' (or alone when the socket dies), after the journal has the outcome.
    res.once('close', leave);
    res.locals.leaveSwitchGate = (end: () => void) => res.once('close', this.#gate.detach(leave, end));
    res.locals.onSwitch = (fn: () => void) => res.once('close', this.#gate.onSwitch(fn));
    res.locals.scenario = this.#active;
    markScenario(res, this.#active.scenario.name);
    next();
  }

  close(): void {
    this.delays.cancelAll();
    this.#gate.endDetached();
  }
}

/** Faults and counters start fresh; a scenario naming a recording gets a fresh replayer (at its first exchange). */
async function armScenario(
  scenario: ResolvedScenario,
  factory: ReplayHandlerFactory | undefined,
): Promise<ActiveScenario> {
  if (!scenario.recording) return new ActiveScenario(scenario, undefined);
  if (!factory) {
    throw new ScenarioError(
      scenario.source,
      'recording',
      `replaying "${scenario.recording}" needs the replayer, which is not wired in`,
    );
  }
  try {
    return new ActiveScenario(scenario, await factory(scenario.recording, scenario));
  } catch (err) {
    throw new ScenarioError(scenario.source, 'recording', (err as Error).message);
  }
}
