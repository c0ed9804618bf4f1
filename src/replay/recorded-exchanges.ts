import { clientOf, type Exchange } from '../recording/format.js';
import { keyString, requestKey, withoutBody, type MatchOptions, type RequestKey } from '../recording/request-key.js';
import type { IndexedExchange } from './miss-message.js';

/**
 * Replay's match step: the recorded exchanges indexed by request key, and how often each client has
 * had each answer. Identical requests get their recorded answers in order, the last one repeating;
 * the order is kept per client, so parallel clients replay deterministically.
 */
export class RecordedExchanges {
  readonly #match: MatchOptions;
  readonly #indexed: IndexedExchange[] = [];
  readonly #byKey = new Map<string, IndexedExchange[]>();
  /** Early refusals recorded without their body: they match whatever body comes. */
  readonly #partialByKey = new Map<string, IndexedExchange[]>();
  /** Per client and key: how many answers it has had. */
  readonly #served = new Map<string, number>();
  readonly #servedById = new Map<number, number>();
  readonly #repeatLast: boolean;

  /** `repeatLast` false: a client that has had every recorded answer for a request misses on the next. */
  constructor(exchanges: readonly Exchange[], match: MatchOptions, repeatLast = true) {
    this.#match = match;
    this.#repeatLast = repeatLast;
    for (const e of exchanges) this.add(e);
  }

  /** Every exchange with its key, in recording order (what a miss's report compares against). */
  get indexed(): readonly IndexedExchange[] {
    return this.#indexed;
  }

  add(exchange: Exchange): void {
    const entry = { exchange, key: requestKey(exchange.request, this.#match) };
    this.#indexed.push(entry);
    const partial = exchange.request.partialBody === true;
    const k = keyString(partial ? withoutBody(entry.key) : entry.key);
    const map = partial ? this.#partialByKey : this.#byKey;
    const list = map.get(k);
    if (list) list.push(entry);
    else map.set(k, [entry]);
  }

  /** The next recorded answer for this client's request, counted as served; undefined for a miss. */
  pick(client: string, key: RequestKey): Exchange | undefined {
    let k = keyString(key);
    let all = this.#byKey.get(k);
    if (!all) {
      k = keyString(withoutBody(key));
      all = this.#partialByKey.get(k);
    }
    if (!all) return undefined;
    const candidates = this.#candidates(all, client);
    const counter = `${client}\n${k}`;
    const n = this.#served.get(counter) ?? 0;
    if (n >= candidates.length && !this.#repeatLast) return undefined;
    this.#served.set(counter, n + 1);
    const exchange = candidates[Math.min(n, candidates.length - 1)]!.exchange;
    this.#servedById.set(exchange.id, (this.#servedById.get(exchange.id) ?? 0) + 1);
    return exchange;
  }

  /** The client's own recorded answers when it has any; otherwise everyone's. */
  #candidates(all: readonly IndexedExchange[], client: string): readonly IndexedExchange[] {
    const own = all.filter((x) => clientOf(x.exchange) === client);
    return own.length ? own : all;
  }

  /** Counts a just-recorded answer (a proxied miss, added last) as served to this client. */
  servedOnce(client: string, key: RequestKey): void {
    const k = keyString(key);
    const candidates = this.#candidates(this.#byKey.get(k) ?? [], client);
    this.#served.set(`${client}\n${k}`, Math.max(1, candidates.length));
  }

  /** Forgets which recorded answers each client has had (back to the first of each). */
  reset(): void {
    this.#served.clear();
    this.#servedById.clear();
  }

  servedCounts(): ReadonlyMap<number, number> {
    return new Map(this.#servedById);
  }
}
