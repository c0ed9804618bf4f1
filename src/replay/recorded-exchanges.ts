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

  constructor(exchanges: readonly Exchange[], match: MatchOptions) {
    this.#match = match;
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
    // The client's own recorded answers when it has any; otherwise everyone's.
    const own = all.filter((x) => clientOf(x.exchange) === client);
    const candidates = own.length ? own : all;
    const counter = `${client}\n${k}`;
    const n = this.#served.get(counter) ?? 0;
    this.#served.set(counter, n + 1);
    const exchange = candidates[Math.min(n, candidates.length - 1)]!.exchange;
    this.#servedById.set(exchange.id, (this.#servedById.get(exchange.id) ?? 0) + 1);
    return exchange;
  }

  /** Counts a just-recorded answer (a proxied miss) as this client's first for its key. */
  servedOnce(client: string, key: RequestKey): void {
    this.#served.set(`${client}\n${keyString(key)}`, 1);
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
