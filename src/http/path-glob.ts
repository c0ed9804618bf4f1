/**
 * The one path glob of the mock: fault rules, second-device triggers and the journal's `path` filter all
 * match with it. Patterns come from input (an admin query, an inline scenario), and rules run before
 * authentication, so matching never backtracks exponentially.
 */

function segmentsOf(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The classic two-pointer wildcard match: on a mismatch it backs up only to the last star, so it
 * costs O(items x pattern) at worst, never exponential time, whatever the pattern (rules run before
 * authentication, so anyone can make them run).
 */
function wildcardMatch<T, P>(
  pattern: readonly P[],
  items: readonly T[],
  isStar: (p: P) => boolean,
  same: (p: P, item: T) => boolean,
): boolean {
  let pi = 0;
  let ii = 0;
  let star = -1;
  let resume = 0;
  while (ii < items.length) {
    if (pi < pattern.length && !isStar(pattern[pi]!) && same(pattern[pi]!, items[ii]!)) {
      pi++;
      ii++;
    } else if (pi < pattern.length && isStar(pattern[pi]!)) {
      star = pi++;
      resume = ii;
    } else if (star >= 0) {
      pi = star + 1;
      ii = ++resume;
    } else {
      return false;
    }
  }
  while (pi < pattern.length && isStar(pattern[pi]!)) pi++;
  return pi === pattern.length;
}

/** One glob segment: "*" inside a segment matches any run of characters within it. */
function segmentMatcher(glob: string): (segment: string) => boolean {
  if (glob === '*') return () => true;
  if (!glob.includes('*')) return (s) => s === glob;
  const chars = [...glob];
  return (s) =>
    wildcardMatch(
      chars,
      [...s],
      (c) => c === '*',
      (c, x) => c === x,
    );
}

type PathPart = '**' | ((segment: string) => boolean);

/** Path glob: "*" is one segment, "**" any number (zero included); empty segments are ignored. */
export function pathMatcher(glob: string): (path: string) => boolean {
  const parts: PathPart[] = segmentsOf(glob).map((g) => (g === '**' ? '**' : segmentMatcher(g)));
  return (path) =>
    wildcardMatch(
      parts,
      segmentsOf(path).map(safeDecode),
      (p) => p === '**',
      (p, segment) => p !== '**' && p(segment),
    );
}
