/** "Unexpected token } in JSON at position 42" -> "line 3, column 7: Unexpected token }" (Node 20 reports positions only). */
export function jsonErrorMessage(text: string, err: Error): string {
  const position = /at position (\d+)/.exec(err.message)?.[1];
  const lineCol = /line (\d+) column (\d+)/.exec(err.message);
  // Never the parser's quotes of the text ('x', "first bytes"...): the file may not be ours to show.
  const reason = err.message
    .replace(/\s*in JSON at position \d+.*$/, '')
    .replace(/,? "[\s\S]*$/, '')
    .replace(/\s*\(line \d+ column \d+\)$/, '')
    .replace(/ '[^']*'/g, '');
  if (lineCol) return `line ${lineCol[1]}, column ${lineCol[2]}: ${reason}`;
  const at =
    position !== undefined
      ? Number(position)
      : /end of JSON input/i.test(err.message)
        ? text.length
        : badPrefixEnd(text);
  if (at === undefined) return reason;
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  const column = at - before.lastIndexOf('\n');
  return `line ${line}, column ${column}: ${reason}`;
}

/**
 * Where parsing first goes wrong, for messages without a position: the shortest prefix that fails
 * with something other than "end of input" ends at the bad character (binary search, a few parses).
 */
function badPrefixEnd(text: string): number | undefined {
  const broken = (length: number): boolean => {
    try {
      JSON.parse(text.slice(0, length));
      return false;
    } catch (e) {
      // A prefix cut inside a value fails "at its end": that is not yet the error.
      const message = (e as Error).message;
      const at = /at position (\d+)/.exec(message)?.[1];
      if (at !== undefined) return Number(at) < length;
      return !/end of JSON input|Unterminated string/i.test(message);
    }
  };
  if (!broken(text.length)) return undefined;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (broken(mid)) high = mid;
    else low = mid + 1;
  }
  return low - 1;
}
