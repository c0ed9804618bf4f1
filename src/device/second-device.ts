import type { RequestHandler } from 'express';
import type { CloudStore } from '../domain/cloud-store.js';
import { toHttpError } from '../http/error-middleware.js';
import type { JournalEntry, RequestJournal } from '../http/journal.js';
import type { DeviceChange, RandomEditor, ResolvedScenario } from '../scenarios/types.js';
import { checkRunTimeChanges } from '../scenarios/schema-check.js';
import { applyChange, planOf } from './apply-change.js';
import { Mutex } from '../turns/mutex.js';
import { ArmedChanges } from './armed-changes.js';
import { ChangeRefusedError } from './change-refused.js';
import { RandomChanges } from './random-editor.js';

export interface SecondDeviceDeps {
  store: CloudStore;
  journal: RequestJournal;
  /** The active scenario's name, for the journal. */
  scenarioName: () => string;
  /** The logins the mock accepts; a change that names no user edits the first one's tree. */
  users: () => ReadonlyMap<string, string>;
  log: (line: string) => void;
}

/**
 * Another device on the same accounts: it changes users' trees through the domain, as a client's
 * request would, and each change is a journal entry of its own (device "second"). Changes run one at a
 * time, in the order they were asked for: on demand, by a scenario's triggers, or by a random editor.
 */
export class SecondDevice {
  readonly #deps: SecondDeviceDeps;
  readonly #turn = new Mutex();
  #armed: ArmedChanges | undefined;
  #editor: { stop(): void } | undefined;

  constructor(deps: SecondDeviceDeps) {
    this.#deps = deps;
  }

  /** Arms a scenario's triggered changes and random editor (what was armed before is dropped). */
  arm(scenario: ResolvedScenario): void {
    this.disarm();
    const changes = scenario.changes ?? [];
    if (changes.length > 0) this.#armed = new ArmedChanges(changes, (change, trigger) => this.#run(change, trigger));
    if (scenario.randomEditor) this.#editor = this.#startEditor(scenario.randomEditor);
  }

  disarm(): void {
    this.#armed?.disarm();
    this.#armed = undefined;
    this.#editor?.stop();
    this.#editor = undefined;
  }

  /** Counts each service request against the armed triggers (nothing to do when none waits). */
  step(): RequestHandler {
    return (req, res, next) => {
      const armed = this.#armed;
      if (armed && !armed.idle) armed.onRequest(req, res);
      next();
    };
  }

  /**
   * Applies changes now, in order. A malformed change throws ScenarioError (naming the field) before any
   * applies; the first that cannot apply stops the rest and throws ChangeRefusedError.
   */
  async change(changes: unknown, source = 'change', trigger = 'on demand'): Promise<JournalEntry[]> {
    const list = checkRunTimeChanges(changes, source);
    const entries: JournalEntry[] = [];
    for (const [i, change] of list.entries()) {
      const entry = await this.#run(change, trigger);
      if (entry.committed) {
        entries.push(entry);
        continue;
      }
      const which = list.length > 1 ? `change ${i + 1} of ${list.length}` : 'change';
      const before = i > 0 ? `; the ${i} before it applied` : '';
      throw new ChangeRefusedError(
        entry.status === 404 ? 404 : 409,
        `${which} refused: ${entry.change!.kind} ${entry.path}: ${entry.change!.error}${before}`,
      );
    }
    return entries;
  }

  #defaultUser(): string {
    return this.#deps.users().keys().next().value ?? 'demo';
  }

  /** Queues one change; its journal entry says whether it applied, and why not. Never throws. */
  #run(change: DeviceChange, trigger: string): Promise<JournalEntry> {
    return this.#turn.run(() => this.#apply(change, trigger));
  }

  async #apply(change: DeviceChange, trigger: string): Promise<JournalEntry> {
    const { store, journal, log } = this.#deps;
    const user = change.user ?? this.#defaultUser();
    const plan = planOf(change, user);
    const started = performance.now();
    let status: number;
    let error: string | undefined;
    try {
      status = await applyChange(store, change, user);
    } catch (err) {
      const refused = toHttpError(err, log);
      status = refused.status;
      error = refused.message;
      log(`second device: ${plan.kind} ${plan.path} (${user}) failed: ${error}`);
    }
    return journal.note({
      user,
      kind: plan.kind,
      path: plan.path,
      status,
      committed: error === undefined,
      durationMs: performance.now() - started,
      scenario: this.#deps.scenarioName(),
      change: {
        kind: plan.kind,
        trigger,
        ...(plan.detail && { detail: plan.detail }),
        ...(error !== undefined && { error }),
      },
    });
  }

  /** One change every `everyMs`, each after the previous one has applied, until `limit` or the next arm. */
  #startEditor(config: RandomEditor): { stop(): void } {
    const changes = new RandomChanges(config, config.user ?? this.#defaultUser());
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const tick = (): void => {
      timer = undefined;
      if (stopped || changes.done) return;
      const change = changes.next(this.#deps.store);
      void this.#run(change, `random editor (seed ${config.seed ?? 1}, change ${changes.count})`).then(schedule);
    };
    const schedule = (): void => {
      if (stopped || changes.done) return;
      timer = setTimeout(tick, config.everyMs);
      timer.unref();
    };
    schedule();
    return {
      stop: () => {
        stopped = true;
        if (timer) clearTimeout(timer);
      },
    };
  }
}
