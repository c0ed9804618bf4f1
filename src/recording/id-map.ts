/** Ids in links: /v2/containers/<id>, /v2/files/<id>, /v2/recyclebin/<id>. */
const ID_IN_LINK = /\/v2\/(?:containers|files|recyclebin)\/([^/?#"'\s<>&]+)/g;

export function idsIn(text: string): string[] {
  return [...text.matchAll(ID_IN_LINK)].map((m) => m[1]!);
}

/**
 * Recorded ids to the ids a fresh emulator gave the same objects, learnt by position: the n-th id
 * in a recorded answer is the n-th id in the emulator's answer to the same request.
 */
export class IdMap {
  readonly #map = new Map<string, string>();

  learn(recorded: string, actual: string): void {
    const a = idsIn(recorded);
    const b = idsIn(actual);
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (!this.#map.has(a[i]!)) this.#map.set(a[i]!, b[i]!);
  }

  /** A recorded text or path with every known recorded id (in a /v2 link) replaced by the emulator's. */
  apply(text: string): string {
    return text.replace(ID_IN_LINK, (whole, id: string) => {
      const to = this.#map.get(id);
      return to === undefined ? whole : whole.slice(0, whole.length - id.length) + to;
    });
  }
}
