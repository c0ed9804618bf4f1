/** Past this many distinct values, new ones are kept as they come (clients choose MIME types freely). */
const MAX_SHARED = 4096;

/**
 * One string per value, for values that many records repeat: owner logins and MIME types. Each
 * request brings its own copy of these (a login parsed from every Authorization header, a type from
 * every Content-Type) and a loaded state one per node; held once, they cost a record nothing.
 */
export class SharedStrings {
  readonly #held = new Map<string, string>();

  /** The string already held with this value, else `value` (held from now on while there is room). */
  share(value: string): string {
    const held = this.#held.get(value);
    if (held !== undefined) return held;
    if (this.#held.size < MAX_SHARED) this.#held.set(value, value);
    return value;
  }

  clear(): void {
    this.#held.clear();
  }
}
