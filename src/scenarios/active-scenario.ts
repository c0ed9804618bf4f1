import type { Request, RequestHandler } from 'express';
import { conditionsFor, sliceDraw, type RequestConditions } from './network/network-conditions.js';
import { compileMatch, type RequestPredicate } from './request-match.js';
import { latencySampler } from './latency-sampler.js';
import { seededRandom } from './seeded-random.js';
import type { FaultRule, ResolvedScenario } from './types.js';

/** A fault rule with its counters: how often it matched and how often it applied. */
class ArmedRule {
  readonly rule: FaultRule;
  readonly label: string;
  /** The rule names OPTIONS itself (not "*"): a CORS preflight may meet it. */
  readonly namesOptions: boolean;
  readonly #matches: RequestPredicate;
  readonly #draw: (() => number) | undefined;
  readonly #latency: (() => number) | undefined;
  /** The jitter of this rule's slice. */
  readonly sliceDraw: (() => number) | undefined;
  #matched = 0;
  #applied = 0;

  constructor(rule: FaultRule, index: number) {
    this.rule = rule;
    this.label = rule.name ?? `faults[${index}]`;
    this.#matches = compileMatch(rule.match);
    const methods = Array.isArray(rule.match.method) ? rule.match.method : [rule.match.method];
    this.namesOptions = methods.some((m) => m.toUpperCase() === 'OPTIONS');
    this.#draw = rule.probability === undefined ? undefined : seededRandom(rule.seed ?? 1);
    this.sliceDraw = sliceDraw(rule.slice);
    this.#latency = rule.latency ? latencySampler(rule.latency) : undefined;
  }

  /** Milliseconds to wait before this rule's action: its delayMs (or respond.delayMs), else a draw of its latency, else 0. */
  delayMs(): number {
    return this.rule.delayMs ?? this.rule.respond?.delayMs ?? this.#latency?.() ?? 0;
  }

  /** Requests the rule matched (including those let through by after, times or probability). */
  get matched(): number {
    return this.#matched;
  }

  /** Requests the fault was applied to. */
  get applied(): number {
    return this.#applied;
  }

  /** Counts a matching request and says whether the fault applies to it (after, times, probability). */
  fires(req: Request): boolean {
    if (!this.#matches(req)) return false;
    this.#matched += 1;
    if (this.#matched <= (this.rule.after ?? 0)) return false;
    if (this.rule.times !== undefined && this.#applied >= this.rule.times) return false;
    if (this.#draw && this.#draw() >= this.rule.probability!) return false;
    this.#applied += 1;
    return true;
  }
}

/** A scenario ready to serve: armed rules, a latency source and the replay handler, all fresh. */
export class ActiveScenario {
  readonly scenario: ResolvedScenario;
  readonly rules: ArmedRule[];
  readonly replay: RequestHandler | undefined;
  /** Nothing to do for any request: no fault rule, latency, network conditions or recording. */
  readonly quiet: boolean;
  /** A rule names OPTIONS: CORS preflights come to the fault rules (and meet only those rules). */
  readonly faultsPreflights: boolean;
  readonly #latency: (() => number) | undefined;
  readonly #sliceDraw: (() => number) | undefined;

  constructor(scenario: ResolvedScenario, replay: RequestHandler | undefined) {
    this.scenario = scenario;
    this.#sliceDraw = sliceDraw(scenario.network?.slice);
    this.rules = scenario.faults.map((rule, i) => new ArmedRule(rule, i));
    this.replay = replay;
    this.quiet = this.rules.length === 0 && !scenario.latency && !scenario.network && !replay;
    this.faultsPreflights = this.rules.some((rule) => rule.namesOptions);
    if (scenario.latency) this.#latency = latencySampler(scenario.latency);
  }

  /** Milliseconds to wait before this request (global latency), or 0. */
  latencyMs(): number {
    return this.#latency ? this.#latency() : 0;
  }

  /**
   * The first rule that matches and fires; rules that match but do not fire still count the request. A CORS
   * preflight meets only the rules that name OPTIONS.
   */
  faultFor(req: Request, preflight = false): ArmedRule | undefined {
    return this.rules.find((rule) => (!preflight || rule.namesOptions) && rule.fires(req));
  }

  /** The network conditions for a request: the scenario's `network`, with the firing rule's own on top. */
  conditionsFor(armed: ArmedRule | undefined): RequestConditions | undefined {
    return conditionsFor(this.scenario.network, this.#sliceDraw, armed?.rule, armed?.sliceDraw);
  }
}
