/**
 * Seed trees are walked with an explicit stack, never by recursion: a tree exported from a deep
 * state (10,000 levels) must be read back. A node's field name ("seed.tree[0].children[3]") is
 * made only when a problem names it, so a deep walk stays linear.
 */

/** Where a node sits: its parent's place and its index there (the top: a field name and an index). */
export interface SeedPlace {
  readonly parent: SeedPlace | undefined;
  /** The field holding the top-level list ("seed.tree", "seed.trees.alice"), for a top-level node. */
  readonly top: string | undefined;
  readonly index: number;
}

/** "seed.tree[0].children[3]" */
export function fieldOfPlace(place: SeedPlace): string {
  const parts: string[] = [];
  let at: SeedPlace | undefined = place;
  for (; at?.parent; at = at.parent) parts.push(`.children[${at.index}]`);
  return `${at?.top ?? ''}[${at?.index ?? 0}]${parts.reverse().join('')}`;
}

/** The JSON pointer of a place below `topPointer` (e.g. "/seed/tree"): "/seed/tree/0/children/3". */
export function pointerOfPlace(place: SeedPlace, topPointer: string): string {
  const parts: string[] = [];
  let at: SeedPlace | undefined = place;
  for (; at?.parent; at = at.parent) parts.push(`/children/${at.index}`);
  return `${topPointer}/${at?.index ?? 0}${parts.reverse().join('')}`;
}

/**
 * Visits every node of `nodes` and below, parents before children, siblings in order. `childrenOf`
 * says what lies below a node (nothing for a file or a malformed node).
 */
export function walkSeed<N>(
  nodes: readonly N[],
  top: string,
  childrenOf: (node: N) => readonly N[] | undefined,
  visit: (node: N, place: SeedPlace) => void,
): void {
  const work: Array<{ node: N; place: SeedPlace }> = [];
  for (let i = nodes.length - 1; i >= 0; i--)
    work.push({ node: nodes[i]!, place: { parent: undefined, top, index: i } });
  for (let item = work.pop(); item; item = work.pop()) {
    visit(item.node, item.place);
    const children = childrenOf(item.node);
    if (!children) continue;
    for (let i = children.length - 1; i >= 0; i--)
      work.push({ node: children[i]!, place: { parent: item.place, top: undefined, index: i } });
  }
}
